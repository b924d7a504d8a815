import { isoDateProblem } from '@asof/calendar';
import { InputError } from '@asof/schema';
import type { DividendEvent, ParsedPriceFile, PriceBar, SplitEvent } from './price-types.ts';

/** Lean stores equity prices as integers: the price × 10000 (deci-cents). */
export const LEAN_PRICE_SCALE = 10000;

function leanDate(raw: string, where: string, row: number): string {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(raw.trim());
  const date = m ? `${m[1]}-${m[2]}-${m[3]}` : '';
  const problem = m ? isoDateProblem(date) : 'expected YYYYMMDD';
  if (problem !== null) {
    throw new InputError(
      'LEAN_BAD_DATE',
      `${where} line ${row}: ${JSON.stringify(raw)} is not a calendar date (${problem}); fix or remove the row`,
      { context: { where, row, value: raw } },
    );
  }
  return date;
}

function leanNumber(raw: string | undefined, where: string, row: number, field: string): number {
  const v = Number((raw ?? '').trim());
  if (raw === undefined || raw.trim() === '' || !Number.isFinite(v)) {
    throw new InputError(
      'LEAN_BAD_NUMBER',
      `${where} line ${row}, field ${field}: ${JSON.stringify(raw ?? '')} is not a number; fix or remove the row`,
      { context: { where, row, field, value: raw ?? '' } },
    );
  }
  return v;
}

const dataLines = (text: string): { line: string; row: number }[] =>
  text
    .split(/\r?\n/)
    .map((line, i) => ({ line: line.trim(), row: i + 1 }))
    .filter((l) => l.line !== '');

/**
 * Parses a Lean daily equity file (`YYYYMMDD 00:00,open,high,low,close,volume`, headerless, prices × 10000,
 * as traded: Lean adjusts at read time from its factor files, never in the file). Each price is the
 * integer / 10000 (exactly the double nearest the decimal: 6455700 → 645.57).
 */
export function parseLeanDailyCsv(text: string, where: string, symbol: string | null): ParsedPriceFile {
  const bars: PriceBar[] = [];
  for (const { line, row } of dataLines(text)) {
    const cells = line.split(',');
    if (cells.length !== 6 || !/^\d{8} \d{2}:\d{2}$/.test(cells[0])) {
      throw new InputError(
        'LEAN_BAD_ROW',
        `${where} line ${row}: ${JSON.stringify(line.slice(0, 80))} is not a Lean daily bar (YYYYMMDD 00:00,open,high,low,close,volume)`,
        { context: { where, row } },
      );
    }
    const date = leanDate(cells[0].slice(0, 8), where, row);
    const px = (k: number, f: string) => leanNumber(cells[k], where, row, f) / LEAN_PRICE_SCALE;
    bars.push({
      date,
      open: px(1, 'open'),
      high: px(2, 'high'),
      low: px(3, 'low'),
      close: px(4, 'close'),
      volume: leanNumber(cells[5], where, row, 'volume'),
      row,
    });
  }
  return {
    format: 'lean_daily',
    symbol,
    currency: 'USD',
    timeZone: 'America/New_York',
    instrumentType: null,
    name: null,
    bars,
    splits: [],
    dividends: [],
    splitsListed: false,
    adjustment: 'none',
    marketTimeMicros: null,
    issues: [],
  };
}

/** One row of a Lean map file: up to and including `date`, the security traded as `ticker`. */
export interface LeanMapRow {
  date: string;
  ticker: string;
  exchange: string | null;
  row: number;
}

/** A Lean map file: one security's ticker history. */
export interface LeanMapFile {
  /** The file's stem (`fb.1`): Lean's permanent name of the security. */
  name: string;
  rows: LeanMapRow[];
  /** `<name>.<n>.csv`: a retired security whose last ticker was reused by a later one. */
  retired: boolean;
}

/** Parses a Lean map file (`YYYYMMDD,ticker[,exchange]`, ascending). */
export function parseLeanMapFile(text: string, where: string, name: string): LeanMapFile {
  const rows: LeanMapRow[] = [];
  for (const { line, row } of dataLines(text)) {
    const cells = line.split(',');
    const date = leanDate(cells[0], where, row);
    const ticker = (cells[1] ?? '').trim().toUpperCase();
    if (!/^[A-Z0-9.^=-]+$/.test(ticker)) {
      throw new InputError(
        'LEAN_MAP_BAD_TICKER',
        `${where} line ${row}: ${JSON.stringify(cells[1] ?? '')} is not a ticker`,
        {
          context: { where, row },
        },
      );
    }
    if (rows.length > 0 && date <= rows[rows.length - 1].date) {
      throw new InputError(
        'LEAN_MAP_NOT_ASCENDING',
        `${where} line ${row}: ${date} is not after the previous row's ${rows[rows.length - 1].date}; a map file lists its dates in ascending order`,
        { context: { where, row } },
      );
    }
    rows.push({ date, ticker, exchange: cells[2]?.trim() || null, row });
  }
  if (rows.length === 0) {
    throw new InputError('LEAN_MAP_EMPTY', `${where}: a map file without rows`, { context: { where } });
  }
  return { name, rows, retired: /\.\d+$/.test(name) };
}

/**
 * The ticker a security traded as on `date` (the first row dated on or after it), or null before the
 * security's first date or after its last row.
 */
export function leanTickerOn(map: LeanMapFile, date: string): string | null {
  if (date < map.rows[0].date) return null;
  for (const r of map.rows) if (r.date >= date) return r.ticker;
  return null;
}

/**
 * The symbol (and entity `ticker:<symbol>`) of a Lean security: its last ticker, upper case; a retired
 * security (`fb.1`) gets its first date appended (`FB_19990929`), since the plain ticker names the later
 * security that reused it (Lean's own identifiers carry the first date the same way).
 */
export function leanSecuritySymbol(map: LeanMapFile): string {
  const last = map.rows[map.rows.length - 1].ticker;
  return map.retired ? `${last}_${map.rows[0].date.replaceAll('-', '')}` : last;
}

/** One row of a Lean factor file. */
export interface LeanFactorRow {
  date: string;
  priceFactor: number;
  splitFactor: number;
  referencePrice: number;
  row: number;
}

/** Parses a Lean factor file (`YYYYMMDD,price_factor,split_factor,reference_price`, ascending, sentinel last). */
export function parseLeanFactorFile(text: string, where: string): LeanFactorRow[] {
  const rows: LeanFactorRow[] = [];
  for (const { line, row } of dataLines(text)) {
    const cells = line.split(',');
    const date = leanDate(cells[0], where, row);
    const r = {
      date,
      priceFactor: leanNumber(cells[1], where, row, 'price_factor'),
      splitFactor: leanNumber(cells[2], where, row, 'split_factor'),
      referencePrice: leanNumber(cells[3], where, row, 'reference_price'),
      row,
    };
    if (!(r.priceFactor > 0) || !(r.splitFactor > 0)) {
      throw new InputError(
        'LEAN_FACTOR_BAD_VALUE',
        `${where} line ${row}: factors must be positive (price_factor ${r.priceFactor}, split_factor ${r.splitFactor})`,
        { context: { where, row } },
      );
    }
    if (rows.length > 0 && date <= rows[rows.length - 1].date) {
      throw new InputError(
        'LEAN_FACTOR_NOT_ASCENDING',
        `${where} line ${row}: ${date} is not after the previous row's ${rows[rows.length - 1].date}`,
        { context: { where, row } },
      );
    }
    rows.push(r);
  }
  if (rows.length === 0) {
    throw new InputError('LEAN_FACTOR_EMPTY', `${where}: a factor file without rows`, { context: { where } });
  }
  return rows;
}

/** The ratio as a small fraction p/q (q ≤ 10, either way up) when within 5e-4 of one; else as computed. */
export function roundSplitRatio(ratio: number): number {
  const up = ratio >= 1 ? ratio : 1 / ratio;
  let best = up;
  let err = Number.POSITIVE_INFINITY;
  for (let q = 1; q <= 10; q++) {
    const p = Math.round(up * q);
    if (p < 1) continue;
    const e = Math.abs(p / q - up) / up;
    if (e < err - 1e-12) {
      err = e;
      best = p / q;
    }
  }
  if (err > 5e-4) return ratio;
  return ratio >= 1 ? best : 1 / best;
}

/**
 * Splits and dividends from a Lean factor file (docs/decisions/0044). Each row's factors apply to the
 * prices of every date up to and including the row's date (and after the previous row's); the sentinel
 * `20501231,1,1,0` closes the list. A change between row i and row i+1 is therefore an action whose
 * ex-date is the first trading day after row i's date (`exDateAfter`: the next bar of the security, else
 * the next NYSE session), and row i's reference_price is the close of that last day before it:
 * - split: split_factor_{i+1} / split_factor_i new shares per old (AAPL 0.0357143 → 0.25 after 2014-06-06:
 *   7, ex 2014-06-09), rounded to a small fraction when within 5e-4 (factors carry 7 digits);
 * - dividend: reference_price_i × (1 − price_factor_i / price_factor_{i+1}) per share as paid (Lean sets
 *   price_factor_i = price_factor_{i+1} × (close − dividend) / close), rounded to 1e-4, as precise as the factors' 7 digits allow (AAPL
 *   20120808: 619.86 × (1 − 0.8613657/0.8650639) = 2.6499 for the $2.65 paid, ex 2012-08-09). Any distribution Lean folds into the price
 *   factor (a spin-off, AIG's 2011 warrants) comes out as a dividend of its cash value.
 */
export function leanFactorEvents(
  rows: readonly LeanFactorRow[],
  exDateAfter: (date: string) => string,
): { splits: SplitEvent[]; dividends: DividendEvent[] } {
  const splits: SplitEvent[] = [];
  const dividends: DividendEvent[] = [];
  for (let i = 0; i + 1 < rows.length; i++) {
    const a = rows[i];
    const b = rows[i + 1];
    if (a.splitFactor === b.splitFactor && a.priceFactor === b.priceFactor) continue;
    const exDate = exDateAfter(a.date);
    if (a.splitFactor !== b.splitFactor)
      splits.push({ exDate, ratio: roundSplitRatio(b.splitFactor / a.splitFactor) });
    if (a.priceFactor !== b.priceFactor) {
      const amount = Math.round(a.referencePrice * (1 - a.priceFactor / b.priceFactor) * 1e4) / 1e4;
      if (amount > 0) dividends.push({ exDate, amount });
    }
  }
  return { splits, dividends };
}
