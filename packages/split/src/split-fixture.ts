import type { Duck } from '@asof/duck';
import { createSplitModel, SPLIT_MODELS } from './split-models.ts';

// Given/expect fixtures of the split models' tests (not exported from the package): one quarterly
// series on a day grid, horizon 2 and lookback 2. Times are whole days after 2020-01-01 (UTC).

/** Day d after 2020-01-01 as a DuckDB TIMESTAMPTZ expression. */
export const day = (d: number) => `TIMESTAMPTZ '2020-01-01 00:00:00+00' + INTERVAL (${d}) DAY`;

/** The ISO date of day n after 2020-01-01. */
export const isoDay = (n: number) => new Date(Date.UTC(2020, 0, 1 + n)).toISOString().slice(0, 10);

/** The split models' parameters with no cutoff, every origin, first releases as targets. */
export const BASE_PARAMS = {
  train_cutoff: '2020-01-21T00:00:00Z', // day 20
  eval_start: '2020-01-31T00:00:00Z', // day 30
  run_date: 'infinity',
  model_cutoff: 'infinity',
  has_cutoff: false,
  origins_policy: 'all',
  target_vintage: 'first_release',
};

/**
 * Creates split_observations, split_series and split_horizons for series `id`: `given` rows are
 * [timestamp day, available_at day, value] (null: a withdrawal). n_revisions and n_obs are as the build
 * counts them.
 */
export async function loadSplitFixture(
  duck: Duck,
  id: string,
  given: readonly (readonly [number, number, number | null])[],
  series: {
    nRevisions: number;
    nObs: number;
    entity?: string;
    spans?: readonly (readonly [string, number | null, number | null, boolean])[];
  },
): Promise<void> {
  await duck.run(
    `CREATE TABLE split_observations AS SELECT * FROM (VALUES ${given
      .map(
        ([t, a, v]) =>
          `('${id}', 'Q', ${day(t)}, NULL::TIMESTAMPTZ, ${day(a)}, ${v === null ? 'NULL' : v}::DOUBLE, 'vintage', 'x')`,
      )
      .join(
        ', ',
      )}) AS v(series_id, frequency, "timestamp", period_start, available_at, value, available_at_basis,
        source_ref)`,
  );
  // The fixture's one series is quarterly: the revised rows are all of its rows (run-split.ts keeps the
  // files of the frequencies that hold a revised series).
  await duck.run('CREATE VIEW split_revised_observations AS SELECT * FROM split_observations');
  await duck.run(
    `CREATE TABLE split_series AS SELECT '${id}' AS series_id, 'Q' AS frequency, true AS eval_target,
       ${series.nRevisions}::BIGINT AS n_revisions, NULL::TIMESTAMPTZ AS first_timestamp,
       NULL::TIMESTAMPTZ AS last_timestamp, ${series.nObs}::BIGINT AS n_obs, ${series.entity ? `'${series.entity}'` : 'NULL::VARCHAR'} AS entity_id`,
  );
  // The parent's resolved membership (docs/decisions/0021): [entity, from day, to day, member] (null = open).
  await duck.run(
    'CREATE TABLE split_member_spans (entity_id VARCHAR, "from" TIMESTAMPTZ, "to" TIMESTAMPTZ, member BOOLEAN)',
  );
  for (const [entity, from, to, member] of series.spans ?? []) {
    await duck.run(
      `INSERT INTO split_member_spans VALUES ('${entity}', ${from === null ? 'NULL' : day(from)}, ${to === null ? 'NULL' : day(to)}, ${member})`,
    );
  }
  await duck.run(
    `CREATE TABLE split_horizons AS SELECT 'Q' AS frequency, 2 AS horizon_steps, 2 AS lookback_steps`,
  );
}

/** Builds the split model tables, in order, with `params`. */
export async function runSplitModels(
  duck: Duck,
  params: Record<string, string | boolean>,
  models: readonly string[] = SPLIT_MODELS,
): Promise<void> {
  for (const name of models) await createSplitModel(duck, name, params);
}
