import { type Duck, loadSql, runSqlFile } from '@asof/duck';

const SQL_DIR = new URL('../sql/', import.meta.url);

/** The query of one of the update's models, `sql/<name>.sql`. */
export function updateModelSql(name: string): string {
  return loadSql(SQL_DIR, name);
}

/** Runs every statement of `sql/<name>.sql` (macro definitions). */
export async function runUpdateSql(duck: Duck, name: string): Promise<void> {
  await runSqlFile(duck, SQL_DIR, name);
}
