import { BIGINT, DOUBLE, type Duck, VARCHAR } from '@asof/duck';
import type { ObservationRow, SeriesInput } from '@asof/schema';

/**
 * Creates minimal `series` and `observations` tables (the columns buildSegments reads) from atomic rows,
 * e.g. a CollectingSink's — for tests and benches that skip the full universe build. n_revisions is
 * computed like the series model does (rows − distinct timestamps).
 */
export async function loadPanel(
  duck: Duck,
  series: readonly (Pick<SeriesInput, 'series_id' | 'frequency' | 'detail_category' | 'title'> & {
    entity_id?: string | null;
  })[],
  // value null: a withdrawal row (docs/decisions/0007), as the universe's observations table holds them.
  observations: readonly (Pick<ObservationRow, 'series_id' | 'timestamp' | 'available_at'> & {
    value: number | null;
  })[],
): Promise<void> {
  await duck.run(
    'CREATE OR REPLACE TABLE stg_panel_obs (series_id VARCHAR, ts_us BIGINT, available_at_us BIGINT, value DOUBLE)',
  );
  const app = await duck.openAppender('stg_panel_obs', [VARCHAR, BIGINT, BIGINT, DOUBLE]);
  for (const o of observations) {
    app.push([o.series_id, BigInt(o.timestamp), BigInt(o.available_at ?? o.timestamp), o.value]);
  }
  app.close();
  await duck.run(
    `CREATE OR REPLACE TABLE observations AS
     SELECT series_id, make_timestamptz(ts_us) AS "timestamp",
       make_timestamptz(available_at_us) AS available_at, value
     FROM stg_panel_obs`,
  );
  await duck.run('DROP TABLE stg_panel_obs');
  await duck.run(
    'CREATE OR REPLACE TABLE stg_panel_series (series_id VARCHAR, frequency VARCHAR, detail_category VARCHAR, title VARCHAR, entity_id VARCHAR)',
  );
  const s = await duck.openAppender('stg_panel_series', [VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR]);
  for (const x of series) s.push([x.series_id, x.frequency, x.detail_category, x.title, x.entity_id ?? null]);
  s.close();
  await duck.run(
    `CREATE OR REPLACE TABLE series AS
     SELECT s.*, coalesce(o.n - o.d, 0) AS n_revisions
     FROM stg_panel_series AS s
     LEFT JOIN (SELECT series_id, count(*) AS n, count(DISTINCT "timestamp") AS d FROM observations GROUP BY series_id) AS o
       USING (series_id)`,
  );
  await duck.run('DROP TABLE stg_panel_series');
}
