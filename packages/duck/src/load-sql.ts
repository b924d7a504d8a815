import { readFileSync } from 'node:fs';
import type { Duck } from './open-duck.ts';

/**
 * The one reader of the SQL models every package keeps in its `sql/` folder. The folder is a URL the
 * caller makes from its own `import.meta.url` (`new URL('../sql/', import.meta.url)`), so it names the
 * package's folder both when the sources run and in the CLI's esbuild bundle, which rewrites each
 * source's `import.meta.url` to the source file's own URL (docs/decisions/0038).
 * A model's text is read once per process: the files are part of the code and do not change under it.
 */
const texts = new Map<string, string>();

/** The text of `<name>.sql` in the folder `dir` (a URL ending in `/`), as written. */
export function loadSql(dir: URL, name: string): string {
  const file = new URL(`${name}.sql`, dir);
  let text = texts.get(file.href);
  if (text === undefined) {
    text = readFileSync(file, 'utf8');
    texts.set(file.href, text);
  }
  return text;
}

/** `<name>.sql` as one query to embed in another statement: trimmed, without its closing `;`. */
export function loadQuery(dir: URL, name: string): string {
  return stripTrailingSemicolon(loadSql(dir, name));
}

/**
 * Runs every statement of `<name>.sql` (table DDL, macro definitions) in order. The whole text goes to
 * DuckDB at once: without parameters it runs each statement in turn, each committed on its own, and stops
 * at the first that fails, as a loop over the statements would; its parser also skips comments, so a `;`
 * inside one splits nothing.
 */
export async function runSqlFile(duck: Duck, dir: URL, name: string): Promise<void> {
  await duck.run(loadSql(dir, name));
}

export function stripTrailingSemicolon(sql: string): string {
  return sql.trim().replace(/;\s*$/, '');
}
