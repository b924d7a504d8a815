import { stringify } from 'yaml';
import type { PublishedDataset } from './published-dataset.ts';

/** The seasonal period of each asof frequency, as fev's `seasonality` (MASE's seasonal naive scale). */
export const SEASONALITY: Record<string, number> = { BD: 5, D: 7, W: 52, M: 12, Q: 4, A: 1 };

/** The quantiles fev scores probabilistic forecasts on (its default). */
export const QUANTILE_LEVELS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

/** fev's dataset_path: the Hub repository id (owner/name) of a Hub URL, else the URL as given. */
export function fevDatasetPath(url: string): string {
  return /^https:\/\/huggingface\.co\/datasets\/([^?#]+?)\/?$/.exec(url)?.[1] ?? url;
}

/**
 * tasks.yaml: one fev task per frequency of a split, on the published `snapshot` config (id, timestamp,
 * target): the split's horizon (horizon_steps of its frequency) and as many windows as the split has
 * origins. The snapshot holds each series as known at the training cutoff and nothing after it (the split's
 * targets stay with `asof score`), so fev's windows are the last `num_windows × horizon` steps of that
 * history: `initial_cutoff` counts back from each series' end (fev's negative cutoff), never into data
 * published after the cutoff. A fev task reads one frequency: `series_frequency` names its rows.
 */
export function renderFevTasks(d: PublishedDataset): string {
  if (!d.split) throw new Error('renderFevTasks: a universe has no evaluation windows');
  const tasks = d.split.windows.map((w) => ({
    task_name: `${d.name}-${w.frequency}`,
    dataset_path: fevDatasetPath(d.url),
    dataset_config: 'snapshot',
    series_frequency: w.frequency,
    horizon: w.horizon,
    num_windows: w.windows,
    initial_cutoff: -(w.horizon * w.windows),
    window_step_size: w.horizon,
    seasonality: SEASONALITY[w.frequency] ?? 1,
    eval_metric: 'MASE',
    extra_metrics: ['WQL'],
    quantile_levels: QUANTILE_LEVELS,
    id_column: 'id',
    timestamp_column: 'timestamp',
    target: 'target',
    known_dynamic_columns: [],
    past_dynamic_columns: [],
    static_columns: [],
  }));
  const header = [
    `# fev tasks of the asof split ${d.name} (version ${d.version}); data: the snapshot config, each series as`,
    '# known at the training cutoff. The windows are the last num_windows x horizon steps of that history',
    "# (initial_cutoff < 0 counts back from each series' end); the evaluation after the cutoff is asof score's.",
    ...d.split.windows.map((w) => `# ${w.frequency}: the split's first origin is ${w.initial_cutoff}.`),
  ].join('\n');
  return `${header}\n${stringify({ tasks }, { lineWidth: 0, aliasDuplicateObjects: false })}`;
}
