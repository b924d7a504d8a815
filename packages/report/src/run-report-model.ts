import { type Duck, type DuckDBValue, loadSql, quoteIdent } from '@asof/duck';

const SQL_DIR = new URL('../sql/', import.meta.url);

/** The query of one report model, `sql/<name>.sql`. */
export function reportModelSql(name: string): string {
  return loadSql(SQL_DIR, name);
}

/** Runs `sql/<name>.sql` with bound parameters and returns its rows. */
export async function runReportModel<T>(
  duck: Duck,
  name: string,
  params?: Record<string, DuckDBValue>,
): Promise<T[]> {
  return duck.all<T>(reportModelSql(name), params);
}

/** Materialises `sql/<name>.sql` as the table `name` (file name = table name), for models read by several others. */
export async function createReportTable(duck: Duck, name: string): Promise<void> {
  await duck.createTable(name, reportModelSql(name));
}

/** Creates an empty `in_<table>` when the manifest lists none, so models over optional tables give no rows. */
export async function ensureInputTable(duck: Duck, table: string, columns: string): Promise<void> {
  await duck.run(`CREATE TABLE IF NOT EXISTS ${quoteIdent(`in_${table}`)} (${columns})`);
}
