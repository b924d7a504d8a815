// docs/errors.md from each package's src/error-codes.ts: shared by scripts/write-errors-doc.ts (npm run errors)
// and tests/errors-doc.test.ts, so the test compares against exactly what the script writes.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ErrorCatalogue, ErrorCodeEntry } from '@asof/schema';

export const REPO = join(import.meta.dirname, '..');
export const ERRORS_DOC = join(REPO, 'docs', 'errors.md');

export interface PackageCatalogue {
  /** The package's folder under packages/, e.g. 'scoring'. */
  dir: string;
  /** Its npm name, e.g. '@asof/scoring'. */
  name: string;
  codes: ErrorCatalogue;
}

/**
 * Every package's catalogue, by folder name. Found by file, not by a list, so a package that gains codes (or a
 * file move between packages) needs no edit here; the file is imported directly because loading every
 * package's index (DuckDB, Vega…) would cost the test seconds. The test checks each index re-exports it.
 */
export async function errorCatalogues(): Promise<PackageCatalogue[]> {
  const out: PackageCatalogue[] = [];
  for (const dir of readdirSync(join(REPO, 'packages')).sort()) {
    const file = join(REPO, 'packages', dir, 'src', 'error-codes.ts');
    if (!existsSync(file)) continue;
    const name = JSON.parse(readFileSync(join(REPO, 'packages', dir, 'package.json'), 'utf8')).name as string;
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const lists = Object.entries(mod).filter(([k]) => k.endsWith('_ERRORS'));
    if (lists.length !== 1) throw new Error(`${file}: exports ${lists.length} *_ERRORS lists, expected 1`);
    out.push({ dir, name, codes: lists[0][1] as ErrorCatalogue });
  }
  return out;
}

const EXIT_TEXT: Record<ErrorCodeEntry['exit'], string> = { 1: '1', 2: '2', warning: 'warning' };

/** Table-cell text: a `|` would end the cell, `<x>` would read as HTML and `*` as emphasis. */
function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\*/g, '\\*');
}

export function errorsDocText(catalogues: readonly PackageCatalogue[]): string {
  const lines = [
    '# Error and warning codes',
    '',
    "<!-- Written by scripts/write-errors-doc.ts from each package's src/error-codes.ts (npm run errors); do not edit. -->",
    '',
    "Every error asof raises on purpose carries a stable `code` (the `code` of an `asof … --json` error document, `err.code` in a library), and so does every warning asof records. Exit: `2` bad input or usage, `1` a failure while running, `warning` recorded (in a manifest's or results' warnings, or as a row issue) while the command goes on. `<name>` stands for a value the message names.",
  ];
  for (const c of catalogues) {
    const shared = c.dir === 'schema' ? ' (codes several packages raise)' : '';
    lines.push('', `## ${c.name}${shared}`, '', '| Code | Exit | When | Fix |', '| --- | --- | --- | --- |');
    for (const code of Object.keys(c.codes).sort()) {
      const e = c.codes[code];
      lines.push(`| \`${code}\` | ${EXIT_TEXT[e.exit]} | ${cell(e.when)} | ${cell(e.fix)} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}
