import { InputError, implausibleValueProblem, printable, readCsv } from '@asof/schema';
import { parseVintageColumn, type RtdsmPeriod, type RtdsmVintage, rtdsmPeriod } from './rtdsm-dates.ts';

/** A value cell: a number, or the text that is not one (dropped as bad_value). */
export type RtdsmCell = { value: number } | { bad: string };

export interface RtdsmRow {
  line: number;
  period: RtdsmPeriod;
  /** One per vintage column; undefined = empty or `#N/A` (not published in that vintage). */
  cells: (RtdsmCell | undefined)[];
}

export interface ParsedRtdsmCsv {
  vintages: RtdsmVintage[];
  rows: RtdsmRow[];
  /** Value cells neither empty nor `#N/A` (the accounting's `read`). */
  valueCells: number;
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const GROUPED = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;

/**
 * A value cell as RTDSM CSV exports write it: a trailing space (`306.4 `), thousands separators inside
 * quotes (`"22,672.9 "`), `#N/A` or empty = not published in that vintage.
 */
export function parseRtdsmCell(raw: string): RtdsmCell | undefined {
  const text = raw.trim();
  if (text === '' || text.toUpperCase() === '#N/A') return undefined;
  const plain = GROUPED.test(text) ? text.replaceAll(',', '') : text;
  if (!NUMBER.test(plain)) return { bad: text };
  const value = Number(plain);
  return implausibleValueProblem(value) === null ? { value } : { bad: text };
}

function fail(code: string, file: string, message: string, context: Record<string, unknown>): never {
  throw new InputError(code, `${file}: ${message}`, { context: { file, ...context } });
}

/**
 * One RTDSM file in the Philadelphia Fed's wide layout: header `DATE,<VAR><YY>Q<n>,…` (one column per
 * vintage), one row per observation date (`1947:Q1` or `1947:01`), all rows of one frequency. Problems of
 * structure are InputErrors naming the file, line, column and value; a value that is not a number is
 * returned as `{ bad }` for the caller to count.
 */
export function parseRtdsmCsv(text: string, file: string): ParsedRtdsmCsv {
  const records = readCsv(text, file, 'RTDSM_BAD_CSV');
  if (records.length === 0) fail('RTDSM_EMPTY_FILE', file, 'the file is empty; re-export it', {});
  const header = records[0].cells.map((c) => c.trim());
  while (header.length > 1 && header[header.length - 1] === '') header.pop();
  if (header[0].toUpperCase() !== 'DATE') {
    fail(
      'RTDSM_BAD_HEADER',
      file,
      `line ${records[0].line}: the first column is ${printable(header[0])}, expected "DATE"; this is not an RTDSM ` +
        'file in the wide layout (one column per vintage, e.g. ROUTPUT65Q4), as the Philadelphia Fed publishes them',
      { row: records[0].line, field: 'DATE', value: header[0] },
    );
  }
  const vintages = header.slice(1).map((name, j) => {
    const v = parseVintageColumn(name);
    if (v === undefined) {
      fail(
        'RTDSM_BAD_VINTAGE_COLUMN',
        file,
        `line ${records[0].line}: column ${j + 2} is ${printable(name)}, not a vintage column <VARIABLE><YY>Q<n> ` +
          '(ROUTPUT65Q4) or <VARIABLE><YY>M<mm> (PCPI98M11)',
        { row: records[0].line, field: `column ${j + 2}`, value: name },
      );
    }
    return v;
  });
  const seen = new Map<string, number>();
  vintages.forEach((v, j) => {
    const prior = seen.get(v.column);
    if (prior !== undefined) {
      fail(
        'RTDSM_DUPLICATE_VINTAGE',
        file,
        `columns ${prior + 2} and ${j + 2} are both ${v.column}; keep one`,
        {
          row: records[0].line,
          field: v.column,
          value: v.column,
        },
      );
    }
    seen.set(v.column, j);
  });
  const rows: RtdsmRow[] = [];
  const periods = new Map<string, number>();
  let frequency: string | undefined;
  let valueCells = 0;
  for (const { line, cells: raw } of records.slice(1)) {
    const dateCell = raw[0].trim();
    for (let j = vintages.length + 1; j < raw.length; j++) {
      if (raw[j].trim() !== '') {
        fail(
          'RTDSM_EXTRA_CELL',
          file,
          `line ${line}: cell ${j + 1} holds ${printable(raw[j].trim())} but the header names only ${vintages.length + 1} columns`,
          {
            row: line,
            field: `column ${j + 1}`,
            value: raw[j],
          },
        );
      }
    }
    const cells = vintages.map((_, j) => parseRtdsmCell(raw[j + 1] ?? ''));
    if (dateCell === '' && cells.every((c) => c === undefined)) continue;
    const period = rtdsmPeriod(dateCell);
    if (period === undefined) {
      fail(
        'RTDSM_BAD_DATE',
        file,
        `line ${line}: DATE ${printable(dateCell)} is not an observation date like 1947:Q1 (quarterly) or 1947:01 (monthly)`,
        { row: line, field: 'DATE', value: dateCell },
      );
    }
    if (frequency !== undefined && period.frequency !== frequency) {
      fail(
        'RTDSM_MIXED_FREQUENCY',
        file,
        `line ${line}: DATE ${printable(dateCell)} is ${period.frequency === 'Q' ? 'quarterly' : 'monthly'} but earlier rows are ` +
          `${frequency === 'Q' ? 'quarterly' : 'monthly'}; one file holds one frequency of observations`,
        { row: line, field: 'DATE', value: dateCell },
      );
    }
    frequency = period.frequency;
    const prior = periods.get(period.date);
    if (prior !== undefined) {
      fail('RTDSM_DUPLICATE_DATE', file, `lines ${prior} and ${line} are both ${dateCell}; keep one`, {
        row: line,
        field: 'DATE',
        value: dateCell,
      });
    }
    periods.set(period.date, line);
    for (const c of cells) if (c !== undefined) valueCells++;
    rows.push({ line, period, cells });
  }
  return { vintages, rows, valueCells };
}
