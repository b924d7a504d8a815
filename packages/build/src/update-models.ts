import { readFileSync } from 'node:fs';
import type { Duck } from '@asof/duck';

const SQL_DIR = new URL('../sql/', import.meta.url);

/** The query of one of the update's models, `sql/<name>.sql`. */
export function updateModelSql(name: string): string {
  return readFileSync(new URL(`${name}.sql`, SQL_DIR), 'utf8');
}

/** Runs every statement of `sql/<name>.sql` (macro definitions). */
export async function runUpdateSql(duck: Duck, name: string): Promise<void> {
  const statements = updateModelSql(name)
    .replace(/--.*$/gm, '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const s of statements) await duck.run(s);
}
