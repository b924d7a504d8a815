import { loadSql } from '@asof/duck';

const SQL_DIR = new URL('../sql/', import.meta.url);

/** The query of one of the update's models, `sql/<name>.sql`. */
export function updateModelSql(name: string): string {
  return loadSql(SQL_DIR, name);
}
