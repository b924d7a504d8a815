import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Duck, type Params, pickUsedParams } from '@asof/duck';

/** The folder of this package's `.sql` models. */
export const PATTERN_MODELS_DIR = fileURLToPath(new URL('../sql/', import.meta.url));

export function patternModelSql(name: string): string {
  return readFileSync(`${PATTERN_MODELS_DIR}${name}.sql`, 'utf8');
}

/** Builds table `name` from `sql/<name>.sql`, binding only the `$params` the model uses. */
export async function runSegmentModel(duck: Duck, name: string, params: Params): Promise<void> {
  const sql = patternModelSql(name);
  await duck.createTable(name, sql, pickUsedParams(sql, params));
}
