import { endOfDayMicros, type Micros, zonedMicros } from '@asof/calendar';
import { type Frequency, InputError, printable } from '@asof/schema';

const ET = 'America/New_York';

/**
 * Days between the end of a vintage's information (the last day of the vintage month: vintage M holds values
 * released up to M's last business day) and the instant its values count as public. The St. Louis Fed
 * posts a vintage after that day, on a day it does not publish; a week covers a posting in the first five
 * business days of the next month, holidays included. See docs/decisions/0042-fredmd-vintage-availability.md.
 */
export const FREDMD_POSTING_MARGIN_DAYS = 7;

/** `YYYY-MM` of a FRED-MD/QD vintage. */
export type FredmdVintage = string;

const VINTAGE_IN_NAME = /(?<!\d)((?:19|20)\d{2})-(0[1-9]|1[0-2])(?!\d)/g;

/**
 * The vintage a file name states: the one `YYYY-MM` in it (`2020-07.csv`, `fredmd_vintage_2020-07.csv`,
 * `FRED-QD_2021-08.csv`). Undefined when the name holds none; an InputError when it holds two different ones.
 */
export function vintageFromName(name: string): FredmdVintage | undefined {
  const found = [...new Set([...name.matchAll(VINTAGE_IN_NAME)].map((m) => `${m[1]}-${m[2]}`))];
  if (found.length > 1) {
    throw new InputError(
      'FREDMD_AMBIGUOUS_VINTAGE',
      `${name}: the file name holds ${found.length} vintages (${found.join(', ')}); name each vintage file with ` +
        'exactly one YYYY-MM (e.g. 2020-07.csv)',
      { context: { file: name, vintages: found } },
    );
  }
  return found[0];
}

/** Checks a vintage given by the caller (pipeline `vintage`): `YYYY-MM`. */
export function checkVintage(value: string, where: string): FredmdVintage {
  if (/^(19|20)\d{2}-(0[1-9]|1[0-2])$/.test(value)) return value;
  throw new InputError(
    'FREDMD_BAD_VINTAGE',
    `${where}: vintage ${printable(value)} is not YYYY-MM (e.g. 2020-07, the month FRED-MD names the file after)`,
    { context: { where, value } },
  );
}

function ymd(y: number, m: number, d: number): string {
  return new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);
}

/**
 * The instant a vintage's values count as public: 23:59:59.999999 America/New_York on the last day of the
 * vintage month plus FREDMD_POSTING_MARGIN_DAYS (2020-07 → 2020-08-07 23:59:59.999999 ET). Basis 'vintage'.
 */
export function fredmdVintageAvailableAt(vintage: FredmdVintage): Micros {
  const [y, m] = vintage.split('-').map(Number);
  return endOfDayMicros(ymd(y, m + 1, FREDMD_POSTING_MARGIN_DAYS), ET);
}

/** A FRED-MD/QD row's period, stamped like source-fred stamps FRED's M/Q dates (normalize-fred-period.ts). */
export interface FredmdPeriod {
  /** First day of the period, YYYY-MM-DD (FRED's date of the observation). */
  date: string;
  /** End of the period, 23:59:59.999999 America/New_York. */
  timestamp: Micros;
  /** Start of the period, 00:00 America/New_York. */
  period_start: Micros;
}

const periodCache = new Map<string, FredmdPeriod>();

/**
 * `sasdate` → period. FRED-MD writes `M/D/YYYY` (current files) or `MM/DD/YYYY` (the historical
 * 1999-08…2014-12 files); a file re-saved by pandas may hold `YYYY-MM-DD`. The day must be 1 (FRED dates a
 * monthly or quarterly value by the first day of a month). Quarterly (FRED-QD): the quarter that holds the
 * month, whichever month of it the file names, so `fredqd:GDPC1` and `fred:GDPC1` share timestamps.
 * Undefined when the cell is not a date.
 */
export function fredmdPeriod(cell: string, frequency: Frequency): FredmdPeriod | undefined {
  const key = `${frequency}|${cell}`;
  const hit = periodCache.get(key);
  if (hit !== undefined) return hit;
  let y: number;
  let m: number;
  let d: number;
  let match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(cell);
  if (match) [m, d, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else {
    match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(cell);
    if (!match) return undefined;
    [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  }
  if (m < 1 || m > 12 || d !== 1 || y < 1700 || y > 2200) return undefined;
  const first = frequency === 'Q' ? m - ((m - 1) % 3) : m;
  const months = frequency === 'Q' ? 3 : 1;
  const date = ymd(y, first, 1);
  const period: FredmdPeriod = {
    date,
    timestamp: endOfDayMicros(ymd(y, first + months, 0), ET),
    period_start: zonedMicros(date, '00:00', ET),
  };
  if (periodCache.size > 100_000) periodCache.clear();
  periodCache.set(key, period);
  return period;
}
