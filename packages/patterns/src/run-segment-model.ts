import { type Duck, loadSql, type Params, pickUsedParams } from '@asof/duck';

/** The folder of this package's `.sql` models. */
const PATTERN_MODELS_DIR = new URL('../sql/', import.meta.url);

export function patternModelSql(name: string): string {
  return loadSql(PATTERN_MODELS_DIR, name);
}

/** Builds table `name` from `sql/<name>.sql`, binding only the `$params` the model uses. */
export async function runSegmentModel(duck: Duck, name: string, params: Params): Promise<void> {
  const sql = patternModelSql(name);
  await duck.createTable(name, sql, pickUsedParams(sql, params));
}

/** segment_placed's key range that holds every series. */
export const ALL_SERIES_KEYS = { key_lo: 1, key_hi: 2_147_483_647 } as const;

/**
 * Builds `segment_steps` (each step's return, segment_steps.sql) over every series: segment_placed for
 * all keys first, dropped again after. buildSegments computes the same rule in TypeScript instead
 * (measureSegments); the FinTSB export's rows and the models' tests use this.
 */
export async function buildSegmentSteps(duck: Duck, params: Params): Promise<void> {
  await runSegmentModel(duck, 'segment_placed', { ...params, ...ALL_SERIES_KEYS });
  try {
    await runSegmentModel(duck, 'segment_steps', params);
  } finally {
    await duck.run('DROP TABLE IF EXISTS segment_placed');
  }
}
