// The split manifest's summary (origins and targets per frequency and window) and the warnings it implies.
import type { Duck } from '@asof/duck';
import type { Manifest } from '@asof/schema';
import type { SplitSettings } from './run-split.ts';
import type { Layout } from './split-models.ts';

/** The windows a model cutoff asks for, with what an empty one means and the flag to change. */
const WINDOW_EMPTY_REASONS: Record<string, string> = {
  T1: 'no origin has all its targets public before the model cutoff (a cutoff before the first targets were published): nothing to compare T2 with; pass an earlier --eval-start or a later --model-cutoff',
  T2: 'no origin after the model cutoff has all its targets public by the run date (a cutoff after the data ends, or a run date too soon after it): nothing the model cannot have seen is scored; pass an earlier --model-cutoff or a later --run-date',
  T3: 'every origin has all its targets public by the run date: no pending origin',
};

/**
 * SPLIT_WINDOW_EMPTY per window the model cutoff asks for (T1, T2, T3) that holds no origin: the split is
 * still written (exit 0), and the warning travels in its manifest (and into every score of it).
 */
export function emptyWindowWarnings(
  summary: Record<string, unknown>,
  s: Pick<SplitSettings, 'modelCutoff' | 'runDate'>,
): Manifest['warnings'] {
  if (s.modelCutoff === null) return [];
  const rows = summary.by_frequency_window as { window: string; origins: number }[];
  return ['T1', 'T2', 'T3']
    .filter((w) => !rows.some((r) => r.window === w && r.origins > 0))
    .map((w) => ({
      code: 'SPLIT_WINDOW_EMPTY',
      message: `window ${w} is empty with --model-cutoff ${s.modelCutoff} and --run-date ${s.runDate}: ${WINDOW_EMPTY_REASONS[w]}`,
    }));
}

export async function summarize(duck: Duck, format: Layout): Promise<Record<string, unknown>> {
  const n = async (sql: string) => Number((await duck.one<{ n: bigint }>(sql)).n);
  const byRows = await duck.all<Record<string, string | bigint | null>>(
    `SELECT frequency, coalesce("window", 'none') AS "window", count(*) AS origins,
            count(DISTINCT series_id) AS series
     FROM origins GROUP BY ALL ORDER BY frequency, "window"`,
  );
  return {
    train_series: await n('SELECT count(*) AS n FROM train_series'),
    train_observations: await n('SELECT coalesce(sum(n_obs), 0) AS n FROM train_series'),
    eval_series: await n('SELECT count(DISTINCT series_id) AS n FROM origins'),
    origins: await n('SELECT count(*) AS n FROM origins'),
    origins_straddling_cutoff_dropped: await n(
      `SELECT count(*) AS n FROM origin_candidates WHERE "window" = 'straddles_cutoff'`,
    ),
    origins_not_member_dropped: await n(
      `SELECT count(*) AS n FROM origin_candidates WHERE "window" IS DISTINCT FROM 'straddles_cutoff' AND NOT member`,
    ),
    origins_with_pending_targets: await n('SELECT count(*) AS n FROM origins WHERE target_known_at IS NULL'),
    inputs: await n(`SELECT count(*) AS n FROM ${format === 'per_origin' ? 'inputs' : 'input_rows'}`),
    input_steps_served: await n('SELECT coalesce(sum(n_input_steps), 0) AS n FROM origins'),
    targets: await n(`SELECT count(*) AS n FROM ${format === 'per_origin' ? 'targets' : 'target_rows'}`),
    by_frequency_window: byRows.map((r) => ({
      frequency: String(r.frequency),
      window: String(r.window),
      origins: Number(r.origins),
      series: Number(r.series),
    })),
  };
}
