import { localDateOfMicros } from '@asof/calendar';
import { BIGINT, type Duck, listValue, loadQuery, quoteIdent, quoteLiteral, VARCHAR } from '@asof/duck';
import type { VerifiedManifest } from '@asof/manifest';
import { InputError } from '@asof/schema';

export const SQL_DIR = new URL('../sql/', import.meta.url);

/** The series table's descriptive columns, copied beside each Nixtla row (static features). */
export const STATIC_COLUMNS = [
  'frequency',
  'title',
  'unit',
  'scope',
  'category',
  'detail_category',
  'entity_id',
  'entity_name',
  'currency',
  'seasonal_adjustment',
  'fiscal_year_end',
  'source',
  'is_synthetic',
] as const;

/** The universe's files: the observation partitions and the series table, as the verified manifest lists them. */
export function universeFiles(verified: VerifiedManifest): { observations: string[]; series: string } {
  const observations = verified.readPaths('observations');
  const series = verified.readPaths('series')[0];
  const kind = verified.manifest.kind;
  if (kind !== 'universe' || observations.length === 0 || series === undefined) {
    throw new InputError(
      'INTEROP_NOT_A_UNIVERSE',
      `${verified.manifest.name}: ${kind === 'universe' ? 'the manifest lists no observations or no series file' : `a ${kind} manifest, not a universe's`}; pass the manifest.json of a folder 'asof build' wrote (README "Your first benchmark")`,
    );
  }
  return { observations, series };
}

/**
 * Stages `series_static` (series_id and the descriptive columns the series file has) and `latest_values`
 * (latest_values.sql at `asOf`, an ISO instant or 'infinity').
 */
export async function stageUniverse(
  duck: Duck,
  files: { observations: string[]; series: string },
  asOf: string,
): Promise<void> {
  const src = `read_parquet(${quoteLiteral(files.series)}, hive_partitioning = false)`;
  const have = new Set(
    (await duck.all<{ column_name: string }>(`DESCRIBE SELECT * FROM ${src}`)).map((c) => c.column_name),
  );
  const columns = STATIC_COLUMNS.filter((c) => have.has(c)).map(quoteIdent);
  await duck.run(`CREATE TABLE series_static AS SELECT series_id, ${columns.join(', ')} FROM ${src}`);
  await duck.createTable('latest_values', loadQuery(SQL_DIR, 'latest_values'), {
    observation_files: listValue(files.observations),
    as_of: asOf,
  });
}

/**
 * `local_dates(us, day)`: the New York date (YYYY-MM-DD) of every distinct instant `query` returns (one
 * BIGINT column `us`, epoch microseconds), computed in TypeScript: SQL works in UTC only
 * (docs/decisions/0024), and a timestamp's period is its New York date (docs/decisions/0004).
 */
export async function stageLocalDates(duck: Duck, query: string): Promise<void> {
  const rows = await duck.all<{ us: bigint }>(`SELECT DISTINCT us FROM (${query}) ORDER BY us`);
  await duck.run('CREATE OR REPLACE TABLE local_dates (us BIGINT, day VARCHAR)');
  await duck.appendColumns(
    'local_dates',
    [BIGINT, VARCHAR],
    [rows.map((r) => r.us), rows.map((r) => localDateOfMicros(Number(r.us), 'America/New_York'))],
  );
}
