import type { PublishConfig } from './write-published-config.ts';

/** The tables of a universe or a split each source view of the models reads. */
export const SOURCE_TABLES = {
  universe: { observations: 'observations', series: 'series', tasks: 'tasks' },
  split: { observations: 'train_observations', series: 'train_series', tasks: 'tasks' },
} as const;

/**
 * The configs of a published folder (docs/decisions/0066): `observations` (the long table, every vintage),
 * `series`, `tasks`, and for a split `snapshot` (fev's one row per series as known at the training cutoff).
 * Each has one split, `train`: a universe is all training material, and a split's published part is what
 * was public by its training cutoff (its evaluation targets stay with asof's scorer).
 */
export function planPublishConfigs(kind: 'universe' | 'split'): PublishConfig[] {
  const what = kind === 'split' ? "the split's training data" : 'the universe';
  const configs: PublishConfig[] = [
    {
      config: 'observations',
      split: 'train',
      model: 'published_observations',
      description: `every observation of ${what}, one row per (series_id, timestamp, available_at): every vintage`,
    },
    {
      config: 'series',
      split: 'train',
      model: 'published_series',
      description: 'one row per series: its taxonomy unit, frequency, source and history statistics',
    },
    {
      config: 'tasks',
      split: 'train',
      model: 'published_tasks',
      description: 'the metrics that apply to each evaluation-target series',
    },
  ];
  if (kind === 'split') {
    configs.push({
      config: 'snapshot',
      split: 'train',
      model: 'published_snapshot',
      description:
        "fev's layout: one row per series (id, timestamp list, target list) as known at the training cutoff",
    });
  }
  return configs;
}
