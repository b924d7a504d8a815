import { isoDateProblem } from '@asof/calendar';
import { InputError, implausibleValueProblem } from '@asof/schema';
import type {
  DividendEvent,
  ParsedPriceFile,
  ParseIssue,
  PriceBar,
  PriceFormat,
  SplitEvent,
  VendorAdjustment,
} from './price-types.ts';

/** Which header holds each field. Date and close are required; the others may be absent. */
export interface UserCsvColumns {
  date: string;
  open?: string;
  high?: string;
  low?: string;
  close: string;
  volume?: string;
  /** Cash dividend per share ex on the row's date (0 or empty = none). */
  dividend?: string;
  /** Split ratio (new/old) effective on the row's date (0, 1 or empty = none). */
  split?: string;
  /** The symbol of each row, for files holding several tickers (Quandl's WIKI/PRICES table). */
  ticker?: string;
}

/**
 * Date formats. `YYYY-MM-DD` accepts a trailing time and offset (`2022-01-03 00:00:00-05:00`: the local
 * trading date is the date written). `D-MMM-YY` is Google Finance's `31-Dec-10`: a two-digit year 00–49 is
 * 20yy, 50–99 is 19yy.
 */
export type UserCsvDateFormat =
  | 'YYYY-MM-DD'
  | 'YYYYMMDD'
  | 'MM/DD/YYYY'
  | 'DD/MM/YYYY'
  | 'DD.MM.YYYY'
  | 'D-MMM-YY';

export interface ParseUserCsvOptions {
  /** Column mapping from the pipeline (header names, matched case-insensitively after trimming). */
  columns: UserCsvColumns;
  symbol?: string | null;
  delimiter?: string;
  dateFormat?: UserCsvDateFormat;
  /** What the file's provider already adjusted (default `none`, i.e. as traded). */
  adjustment?: VendorAdjustment;
  timeZone?: string;
  currency?: string | null;
  splits?: SplitEvent[];
  dividends?: DividendEvent[];
  /** Reported as the file's format (`yahoo_csv` for Yahoo v7 downloads). */
  format?: PriceFormat;
}

/** Yahoo's discontinued v7 download CSV: `Date,Open,High,Low,Close,Adj Close,Volume`, split-adjusted OHLC. */
export const YAHOO_DOWNLOAD_CSV_COLUMNS: UserCsvColumns = {
  date: 'Date',
  open: 'Open',
  high: 'High',
  low: 'Low',
  close: 'Close',
  volume: 'Volume',
};

/** True when the header is Yahoo's v7 download history header. */
export function isYahooDownloadCsv(text: string): boolean {
  const header = text.slice(0, 200).split(/\r?\n/, 1)[0].trim();
  return header === 'Date,Open,High,Low,Close,Adj Close,Volume';
}

/** Splits one CSV line, honouring double quotes ("" inside quotes is a literal quote). */
export function splitCsvLine(line: string, delimiter: string): string[] {
  if (!line.includes('"')) return line.split(delimiter);
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (line.startsWith(delimiter, i)) {
      out.push(cur);
      cur = '';
      i += delimiter.length - 1;
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

function toIsoDate(raw: string, format: UserCsvDateFormat): string | null {
  const s = raw.trim();
  let m: RegExpExecArray | null;
  switch (format) {
    case 'YYYY-MM-DD':
      // Accept a trailing time (`2021-07-20 00:00:00`), which spreadsheet exports add.
      m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T].*)?$/.exec(s);
      return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
    case 'YYYYMMDD':
      m = /^(\d{4})(\d{2})(\d{2})$/.exec(s);
      return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
    case 'MM/DD/YYYY':
      m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
      return m ? `${m[3]}-${m[1].padStart(2, '0')}-${m[2].padStart(2, '0')}` : null;
    case 'DD/MM/YYYY':
      m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
      return m ? `${m[3]}-${m[2].padStart(2, '0')}-${m[1].padStart(2, '0')}` : null;
    case 'DD.MM.YYYY':
      m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(s);
      return m ? `${m[3]}-${m[2].padStart(2, '0')}-${m[1].padStart(2, '0')}` : null;
    case 'D-MMM-YY': {
      m = /^(\d{1,2})-([A-Za-z]{3})-(\d{2})$/.exec(s);
      const month = m ? MONTHS.indexOf(m[2].toLowerCase()) + 1 : 0;
      if (!m || month === 0) return null;
      const yy = Number(m[3]);
      return `${yy < 50 ? 2000 + yy : 1900 + yy}-${String(month).padStart(2, '0')}-${m[1].padStart(2, '0')}`;
    }
  }
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * Parses a user-supplied OHLCV CSV with a column mapping from the pipeline. Empty cells and `null`/`NaN`
 * are missing (never zero). Ragged rows and unreadable cells are listed in `issues`. `dividend` and `split`
 * columns become the file's events (and `splitsListed`); a `ticker` column is refused here (use
 * `parseUserCsvBySymbol`).
 */
export function parseUserCsv(
  text: string,
  options: ParseUserCsvOptions,
  where = 'user csv',
): ParsedPriceFile {
  const files = parseUserCsvBySymbol(text, options, where);
  if (files.length !== 1) {
    throw new InputError(
      'USER_CSV_SEVERAL_SYMBOLS',
      `${where}: the ${options.columns.ticker} column names ${files.length} symbols; read it with parseUserCsvBySymbol`,
      { context: { where } },
    );
  }
  return files[0];
}

/**
 * Like `parseUserCsv`, one parsed file per symbol of the `ticker` column (in order of first appearance; the
 * row numbers stay the file's); without a `ticker` column, one file with `options.symbol`.
 */
export function parseUserCsvBySymbol(
  text: string,
  options: ParseUserCsvOptions,
  where = 'user csv',
): ParsedPriceFile[] {
  const delimiter = options.delimiter ?? ',';
  const dateFormat = options.dateFormat ?? 'YYYY-MM-DD';
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = splitCsvLine(lines[0] ?? '', delimiter).map((h) => h.trim().toLowerCase());
  const index: Partial<Record<keyof UserCsvColumns, number>> = {};
  for (const [field, name] of Object.entries(options.columns) as [
    keyof UserCsvColumns,
    string | undefined,
  ][]) {
    if (name === undefined) continue;
    const k = header.indexOf(name.trim().toLowerCase());
    if (k < 0) {
      throw new InputError(
        'USER_CSV_MISSING_COLUMN',
        `${where}: the column mapping names ${JSON.stringify(name)} for ${field}, but the header is ${JSON.stringify(lines[0] ?? '')}; fix the mapping in the pipeline`,
        { context: { where, field, column: name } },
      );
    }
    index[field] = k;
  }
  interface Part {
    bars: PriceBar[];
    issues: ParseIssue[];
    splits: SplitEvent[];
    dividends: DividendEvent[];
  }
  const parts = new Map<string | null, Part>();
  const partOf = (symbol: string | null): Part => {
    let p = parts.get(symbol);
    if (p === undefined) {
      p = { bars: [], issues: [], splits: [], dividends: [] };
      parts.set(symbol, p);
    }
    return p;
  };
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '') continue;
    const row = i + 1;
    const cells = splitCsvLine(line, delimiter);
    const symbol = index.ticker === undefined ? (options.symbol ?? null) : (cells[index.ticker] ?? '').trim();
    if (symbol === '') {
      throw new InputError(
        'USER_CSV_BAD_SYMBOL',
        `${where} line ${row}, field ${options.columns.ticker}: empty; every row of a several-ticker file names its ticker`,
        { context: { where, row, field: options.columns.ticker } },
      );
    }
    const part = partOf(symbol);
    const { issues } = part;
    if (cells.length !== header.length) {
      issues.push({
        code: 'RAGGED_ROW',
        row,
        message: `${where} line ${row}: ${cells.length} fields, expected ${header.length}: ${JSON.stringify(line)}; missing fields are left missing`,
      });
    }
    const rawDate = cells[index.date!] ?? '';
    const date = toIsoDate(rawDate, dateFormat);
    const dateProblem = date === null ? `does not match ${dateFormat}` : isoDateProblem(date);
    if (date === null || dateProblem !== null) {
      throw new InputError(
        'USER_CSV_BAD_DATE',
        `${where} line ${row}, field ${options.columns.date}: ${JSON.stringify(rawDate)} is not a calendar date (${dateProblem}); fix or remove the row, or set the date format in the column mapping`,
        { context: { where, row, field: options.columns.date, value: rawDate } },
      );
    }
    const num = (field: keyof UserCsvColumns): number | null => {
      const k = index[field];
      if (k === undefined) return null;
      const raw = (cells[k] ?? '').trim();
      if (raw === '' || raw === 'null' || raw === 'NaN' || raw === 'NA') return null;
      const v = Number(raw.replace(/_/g, ''));
      if (!Number.isFinite(v)) {
        issues.push({
          code: 'BAD_NUMBER',
          row,
          message: `${where} line ${row}: ${field} ${JSON.stringify(raw)} is not a number; left missing`,
        });
        return null;
      }
      const implausible = implausibleValueProblem(v);
      if (implausible !== null) {
        throw new InputError(
          'USER_CSV_IMPLAUSIBLE_VALUE',
          `${where} line ${row}, field ${options.columns[field]}: ${implausible}; fix or remove the row`,
          { context: { where, row, field: options.columns[field], value: raw } },
        );
      }
      return v;
    };
    part.bars.push({
      date,
      open: num('open'),
      high: num('high'),
      low: num('low'),
      close: num('close'),
      volume: num('volume'),
      row,
    });
    const dividend = num('dividend');
    if (dividend !== null && dividend !== 0) {
      if (dividend > 0) part.dividends.push({ exDate: date, amount: dividend });
      else
        issues.push({
          code: 'BAD_DIVIDEND',
          row,
          message: `${where} line ${row}: dividend ${dividend} is negative; left out`,
        });
    }
    const split = num('split');
    if (split !== null && split !== 0 && split !== 1) {
      if (split > 0) part.splits.push({ exDate: date, ratio: split });
      else
        issues.push({
          code: 'BAD_SPLIT',
          row,
          message: `${where} line ${row}: split ratio ${split} is negative; left out`,
        });
    }
  }
  if (parts.size === 0) {
    throw new InputError(
      'USER_CSV_NO_ROWS',
      `${where}: the file has a header but no data rows; an empty download has nothing to ingest: re-download it or remove the file`,
      { context: { where } },
    );
  }
  const eventColumns = index.split !== undefined;
  return [...parts].map(([symbol, p]) => ({
    format: options.format ?? 'user_csv',
    symbol,
    currency: options.currency ?? null,
    timeZone: options.timeZone ?? 'America/New_York',
    instrumentType: null,
    name: null,
    bars: p.bars,
    splits: [...(options.splits ?? []), ...p.splits],
    dividends: [...(options.dividends ?? []), ...p.dividends],
    splitsListed: options.splits !== undefined || eventColumns,
    adjustment: options.adjustment ?? 'none',
    marketTimeMicros: null,
    issues: p.issues,
  }));
}
