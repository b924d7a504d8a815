import { badDateMessage } from '@asof/calendar';
import { InputError } from '@asof/schema';
import { parseFredValue } from './parse-fred-value.ts';

export interface FredgraphColumn {
  fredId: string;
  /** Every data row of the file, in file order; `value` null when the cell was empty or ".". */
  rows: { date: string; value: number | null }[];
  missing: number;
}

export interface ParsedFredgraphCsv {
  /** 'legacy' = header `DATE,<ID>` (missing "."), 'current' = `observation_date,<ID>` (missing empty). */
  format: 'legacy' | 'current';
  /** One entry per series column (fredgraph writes several when several series were graphed). */
  columns: FredgraphColumn[];
}

const ID_RE = /^[A-Za-z0-9_]+$/;

/** Parses a fredgraph.csv download: legacy or current header, LF or CRLF, with or without a final newline. */
export function parseFredgraphCsv(text: string, where: string): ParsedFredgraphCsv {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) {
    throw new InputError(
      'FRED_BAD_CSV',
      `${where}: empty file; expected a fredgraph CSV with a header line`,
      {
        context: { where },
      },
    );
  }
  const header = lines[0].split(',').map((h) => h.trim());
  const first = header[0];
  const format = first === 'DATE' ? 'legacy' : first === 'observation_date' ? 'current' : undefined;
  if (format === undefined || header.length < 2 || !header.slice(1).every((h) => ID_RE.test(h))) {
    throw new InputError(
      'FRED_BAD_CSV',
      `${where}: line 1 is ${JSON.stringify(lines[0])}; expected "DATE,<SERIES_ID>" (legacy) or ` +
        '"observation_date,<SERIES_ID>" (current fredgraph.csv); download the CSV from fred.stlouisfed.org unedited',
      { context: { where, line: 1, header: lines[0] } },
    );
  }
  const columns: FredgraphColumn[] = header.slice(1).map((fredId) => ({ fredId, rows: [], missing: 0 }));
  const seen = new Map<string, number>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    const cells = line.split(',');
    if (line.includes('"') || cells.length !== header.length) {
      throw new InputError(
        'FRED_BAD_CSV',
        `${where}: line ${i + 1} is ${JSON.stringify(line)}; expected ${header.length} unquoted cells ` +
          `(date, ${header.length - 1} value(s)); quoted or comma-grouped numbers mean the file was edited`,
        { context: { where, line: i + 1, text: line } },
      );
    }
    const date = cells[0].trim();
    const dateProblem = badDateMessage(date);
    if (dateProblem !== null) {
      throw new InputError(
        'FRED_BAD_CSV',
        `${where}: line ${i + 1}, field ${header[0]}: ${dateProblem}; download the CSV again unedited`,
        { context: { where, line: i + 1, field: header[0], date } },
      );
    }
    const before = seen.get(date);
    if (before !== undefined) {
      throw new InputError(
        'FRED_BAD_CSV',
        `${where}: line ${i + 1}: date ${date} already on line ${before}; a fredgraph CSV has one row per date`,
        { context: { where, line: i + 1, date } },
      );
    }
    seen.set(date, i + 1);
    for (let c = 1; c < cells.length; c++) {
      const col = columns[c - 1];
      const value = parseFredValue(cells[c], `${where}: line ${i + 1}, ${col.fredId} ${date}`);
      if (value === null) col.missing++;
      col.rows.push({ date, value });
    }
  }
  if (lines.length === 1) {
    throw new InputError(
      'FRED_EMPTY_CSV',
      `${where}: the file has a header (${JSON.stringify(lines[0])}) but no data rows; download the series again ` +
        '(an empty fredgraph CSV means the series or date range had no observations)',
      { context: { where } },
    );
  }
  return { format, columns };
}
