import { type Duck, loadSql, type Params } from '@asof/duck';

const SQL_DIR = new URL('../sql/', import.meta.url);

/** The query of one diff model, `sql/<name>.sql`. */
export function diffModelSql(name: string): string {
  return loadSql(SQL_DIR, name);
}

/** Materialises `sql/<name>.sql` as the table `name`. */
export async function createDiffTable(duck: Duck, name: string, params?: Params): Promise<void> {
  await duck.createTable(name, diffModelSql(name), params);
}
