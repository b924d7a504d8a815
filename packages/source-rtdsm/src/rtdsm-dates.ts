import { endOfDayMicros, type Micros, zonedMicros } from '@asof/calendar';
import type { Frequency } from '@asof/schema';

const ET = 'America/New_York';

/**
 * Days between a vintage's information date and the instant its values count as public, for the time the
 * Philadelphia Fed takes to post a vintage (docs/decisions/0043-rtdsm-vintage-dates.md). The same week as
 * FRED-MD's (0042).
 */
export const RTDSM_POSTING_MARGIN_DAYS = 7;

/** A vintage column's name, split: `ROUTPUT65Q4` → ROUTPUT, 1965 Q4; `PCPI98M11` → PCPI, 1998 M11. */
export interface RtdsmVintage {
  /** The column name as written. */
  column: string;
  variable: string;
  kind: 'Q' | 'M';
  year: number;
  /** Quarter 1–4 for `Q`, month 1–12 for `M`. */
  index: number;
  /**
   * The date the vintage's data stand as of (YYYY-MM-DD): the 15th of the quarter's middle month for
   * quarterly vintages (the RTDSM's documented convention), the last day of the month for monthly ones.
   */
  infoDate: string;
  /** Sorts vintages: `YYYY-Qn` or `YYYY-Mmm` → a number increasing with time. */
  order: number;
}

const VINTAGE_COLUMN = /^(.+?)(\d{2})(?:Q([1-4])|M(0[1-9]|1[0-2]))$/;

function ymd(y: number, m: number, d: number): string {
  return new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);
}

/**
 * The two-digit year of an RTDSM column: the data set's vintages start in 1965 (ROUTPUT65Q4), so 65–99 are
 * 1965–1999 and 00–64 are 2000–2064.
 */
export function rtdsmYear(yy: number): number {
  return yy >= 65 ? 1900 + yy : 2000 + yy;
}

/** Splits a vintage column name; undefined when it is not `<VARIABLE><YY>Q<n>` or `<VARIABLE><YY>M<mm>`. */
export function parseVintageColumn(column: string): RtdsmVintage | undefined {
  const m = VINTAGE_COLUMN.exec(column.trim());
  if (!m) return undefined;
  const year = rtdsmYear(Number(m[2]));
  if (m[3] !== undefined) {
    const q = Number(m[3]);
    return {
      column: column.trim(),
      variable: m[1],
      kind: 'Q',
      year,
      index: q,
      infoDate: ymd(year, 3 * q - 1, 15),
      order: year * 12 + 3 * q - 2,
    };
  }
  const month = Number(m[4]);
  return {
    column: column.trim(),
    variable: m[1],
    kind: 'M',
    year,
    index: month,
    infoDate: ymd(year, month + 1, 0),
    order: year * 12 + month,
  };
}

/**
 * The instant a vintage's values count as public: 23:59:59.999999 America/New_York,
 * RTDSM_POSTING_MARGIN_DAYS after its information date (ROUTPUT24Q1: data as of 2024-02-15 → 2024-02-22
 * 23:59:59.999999 ET). Basis 'vintage'.
 */
export function rtdsmVintageAvailableAt(v: Pick<RtdsmVintage, 'infoDate'>): Micros {
  const [y, m, d] = v.infoDate.split('-').map(Number);
  return endOfDayMicros(ymd(y, m, d + RTDSM_POSTING_MARGIN_DAYS), ET);
}

/** An observation row's period, stamped like source-fred stamps FRED's M/Q dates (end of period, ET). */
export interface RtdsmPeriod {
  /** First day of the period, YYYY-MM-DD. */
  date: string;
  frequency: Frequency;
  timestamp: Micros;
  period_start: Micros;
}

/**
 * `1947:Q1` (quarterly) or `1947:01` / `1947:M01` (monthly) → period; undefined when the cell is neither.
 */
export function rtdsmPeriod(cell: string): RtdsmPeriod | undefined {
  const text = cell.trim();
  let m = /^(\d{4}):?Q([1-4])$/i.exec(text);
  let y: number;
  let first: number;
  let months: number;
  let frequency: Frequency;
  if (m) {
    y = Number(m[1]);
    first = 3 * Number(m[2]) - 2;
    months = 3;
    frequency = 'Q';
  } else {
    m = /^(\d{4}):M?(0[1-9]|1[0-2])$/i.exec(text);
    if (!m) return undefined;
    y = Number(m[1]);
    first = Number(m[2]);
    months = 1;
    frequency = 'M';
  }
  const date = ymd(y, first, 1);
  return {
    date,
    frequency,
    timestamp: endOfDayMicros(ymd(y, first + months, 0), ET),
    period_start: zonedMicros(date, '00:00', ET),
  };
}
