import { type Frequency, InputError, implausibleValueProblem, printable, readCsv } from '@asof/schema';
import { type FredmdPeriod, fredmdPeriod } from './fredmd-dates.ts';

export type FredmdDataset = 'fredmd' | 'fredqd';

export interface FredmdColumn {
  /** The header as written, trimmed (`INDPRO`, `RETAILx`, `S&P 500`). */
  mnemonic: string;
  /** The `Transform:` row's code (McCracken & Ng tcode 1–7) as written; null when the file has none. */
  tcode: string | null;
  /** FRED-QD's `factors` row (1 = used in the factor estimates) as written; null in FRED-MD. */
  factor: string | null;
}

/** A value cell: a finite number, or the text that is not one (dropped as bad_value). */
export type FredmdCell = { value: number } | { bad: string };

export interface FredmdRow {
  /** 1-based line in the file. */
  line: number;
  /** The `sasdate` cell as written. */
  sasdate: string;
  period: FredmdPeriod;
  /** One per column; undefined = blank (not published). */
  cells: (FredmdCell | undefined)[];
}

export interface ParsedFredmdCsv {
  dataset: FredmdDataset;
  frequency: Frequency;
  columns: FredmdColumn[];
  rows: FredmdRow[];
  /** Non-blank value cells (the accounting's `read`). */
  valueCells: number;
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A value cell as FRED-MD writes it: blank = not published; old files pad numbers with leading spaces. */
export function parseFredmdCell(raw: string): FredmdCell | undefined {
  const text = raw.trim();
  if (text === '') return undefined;
  if (!NUMBER.test(text)) return { bad: text };
  const value = Number(text);
  return implausibleValueProblem(value) === null ? { value } : { bad: text };
}

function fail(code: string, file: string, message: string, context: Record<string, unknown>): never {
  throw new InputError(code, `${file}: ${message}`, { context: { file, ...context } });
}

/**
 * Reads one FRED-MD or FRED-QD vintage file: header `sasdate,<mnemonic>,…`, then metadata rows
 * (`Transform:` tcodes; FRED-QD also `factors`), then one row per month (quarter). A file with a `factors`
 * row, or whose name says FRED-QD (`fredqd`, `fred-qd`, `fred_qd`), is FRED-QD (quarterly); else FRED-MD.
 * Old (fixed-width, 9 decimals, `MM/DD/YYYY`) and current (`M/D/YYYY`, plain numbers) files read the same.
 * A row with no date and no values (the trailing `,,,` line) is skipped. Problems of structure (header, a
 * date, a duplicate period or column) are InputErrors naming the file, line, column and value; a value cell
 * that is not a number is returned as `{ bad }` for the caller to count.
 */
export function parseFredmdCsv(text: string, file: string): ParsedFredmdCsv {
  const records = readCsv(text, file, 'FREDMD_BAD_CSV');
  if (records.length === 0) fail('FREDMD_EMPTY_FILE', file, 'the file is empty; re-download the vintage', {});
  const header = records[0].cells.map((c) => c.trim());
  if (header[0].toLowerCase() !== 'sasdate') {
    fail(
      'FREDMD_BAD_HEADER',
      file,
      `line ${records[0].line}: the first column is ${printable(header[0])}, expected "sasdate"; this is not a ` +
        'FRED-MD/FRED-QD vintage file (McCracken & Ng, research.stlouisfed.org/econ/mccracken/fred-databases)',
      { row: records[0].line, field: 'sasdate', value: header[0] },
    );
  }
  const names = header.slice(1);
  while (names.length > 0 && names[names.length - 1] === '') names.pop();
  const seen = new Map<string, number>();
  names.forEach((name, j) => {
    if (name === '') {
      fail(
        'FREDMD_BAD_HEADER',
        file,
        `line ${records[0].line}: column ${j + 2} has no name; every value column needs its mnemonic`,
        {
          row: records[0].line,
          field: `column ${j + 2}`,
          value: name,
        },
      );
    }
    const prior = seen.get(name);
    if (prior !== undefined) {
      fail(
        'FREDMD_DUPLICATE_COLUMN',
        file,
        `columns ${prior + 2} and ${j + 2} are both ${printable(name)}; keep one`,
        {
          row: records[0].line,
          field: name,
          value: name,
        },
      );
    }
    seen.set(name, j);
  });
  const columns: FredmdColumn[] = names.map((mnemonic) => ({ mnemonic, tcode: null, factor: null }));
  let i = 1;
  let factors = false;
  for (; i < records.length; i++) {
    const label = records[i].cells[0].trim().toLowerCase().replace(/:$/, '');
    if (label !== 'transform' && label !== 'factors') break;
    if (label === 'factors') factors = true;
    columns.forEach((c, j) => {
      const v = (records[i].cells[j + 1] ?? '').trim();
      if (label === 'transform') c.tcode = v === '' ? null : v;
      else c.factor = v === '' ? null : v;
    });
  }
  const dataset: FredmdDataset = factors || /fred[-_ ]?qd/i.test(file) ? 'fredqd' : 'fredmd';
  const frequency: Frequency = dataset === 'fredqd' ? 'Q' : 'M';
  const rows: FredmdRow[] = [];
  const periods = new Map<string, number>();
  let valueCells = 0;
  for (; i < records.length; i++) {
    const { line, cells: raw } = records[i];
    const sasdate = raw[0].trim();
    for (let j = names.length + 1; j < raw.length; j++) {
      if (raw[j].trim() !== '') {
        fail(
          'FREDMD_EXTRA_CELL',
          file,
          `line ${line}: cell ${j + 1} holds ${printable(raw[j].trim())} but the header names only ${names.length + 1} columns`,
          {
            row: line,
            field: `column ${j + 1}`,
            value: raw[j],
          },
        );
      }
    }
    const cells = names.map((_, j) => parseFredmdCell(raw[j + 1] ?? ''));
    if (sasdate === '') {
      if (cells.every((c) => c === undefined)) continue;
      fail(
        'FREDMD_BAD_DATE',
        file,
        `line ${line}: values without a sasdate; give the row its date (M/D/YYYY)`,
        {
          row: line,
          field: 'sasdate',
          value: sasdate,
        },
      );
    }
    const period = fredmdPeriod(sasdate, frequency);
    if (period === undefined) {
      fail(
        'FREDMD_BAD_DATE',
        file,
        `line ${line}: sasdate ${printable(sasdate)} is not a first-of-month date M/D/YYYY (e.g. 1/1/1959)`,
        { row: line, field: 'sasdate', value: sasdate },
      );
    }
    const prior = periods.get(period.date);
    if (prior !== undefined) {
      fail(
        'FREDMD_DUPLICATE_DATE',
        file,
        `lines ${prior} and ${line} are both the ${frequency === 'Q' ? 'quarter' : 'month'} of ${period.date}; keep one`,
        { row: line, field: 'sasdate', value: sasdate },
      );
    }
    periods.set(period.date, line);
    for (const c of cells) if (c !== undefined) valueCells++;
    rows.push({ line, sasdate, period, cells });
  }
  return { dataset, frequency, columns, rows, valueCells };
}
