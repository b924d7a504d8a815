import { RegistryError, type RowOrigin } from './registry-error.ts';

export interface TsvRow {
  origin: RowOrigin;
  cells: Record<string, string>;
}

/**
 * Parses a registry TSV: the first non-comment line is the header; blank lines and lines starting with
 * `#` are skipped but still counted, so `origin.line` is the line an editor shows.
 */
export function readTsv(text: string, file: string, path: string, columns: readonly string[]): TsvRow[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const rows: TsvRow[] = [];
  let header: string[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    if (raw.trim() === '' || raw.startsWith('#')) continue;
    const origin = { file, path, line: i + 1 };
    const cells = raw.split('\t').map((c) => c.trim());
    if (header === undefined) {
      header = cells;
      const missing = columns.filter((c) => !header?.includes(c));
      if (missing.length > 0) {
        throw new RegistryError(
          origin,
          `header lacks column(s) ${missing.join(', ')}; expected tab-separated columns ${columns.join(', ')}`,
        );
      }
      continue;
    }
    if (cells.length !== header.length) {
      throw new RegistryError(
        origin,
        `has ${cells.length} tab-separated field(s), the header has ${header.length} (${header.join(', ')}); ` +
          'separate fields with one tab each',
      );
    }
    const record: Record<string, string> = {};
    header.forEach((name, j) => {
      record[name] = cells[j];
    });
    rows.push({ origin, cells: record });
  }
  if (header === undefined) {
    throw new RegistryError(
      { file, path, line: 1 },
      `is empty; expected a header line ${columns.join('\t')}`,
    );
  }
  return rows;
}
