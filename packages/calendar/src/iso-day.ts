import { parseIsoDate } from './zoned-micros.ts';

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : Number.NaN;
}

/**
 * Days since 1970-01-01 for a `YYYY-MM-DD` date (proleptic Gregorian, no time zone involved). Price ingest
 * calls this per bar, so it reads the digits directly (Hinnant's days-from-civil) and falls back to
 * `parseIsoDate` only to produce its error for a malformed or impossible date.
 */
export function isoDayNumber(date: string): number {
  if (date.length === 10 && date.charCodeAt(4) === 45 && date.charCodeAt(7) === 45) {
    const y0 = digit(date, 0) * 1000 + digit(date, 1) * 100 + digit(date, 2) * 10 + digit(date, 3);
    const m = digit(date, 5) * 10 + digit(date, 6);
    const d = digit(date, 8) * 10 + digit(date, 9);
    const leap = y0 % 4 === 0 && (y0 % 100 !== 0 || y0 % 400 === 0);
    if (m >= 1 && m <= 12 && d >= 1 && d <= (m === 2 && leap ? 29 : DAYS_IN_MONTH[m - 1])) {
      const y = m <= 2 ? y0 - 1 : y0;
      const era = Math.floor(y / 400);
      const yoe = y - era * 400;
      const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
      const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
      return era * 146097 + doe - 719468;
    }
  }
  const [y, m, d] = parseIsoDate(date);
  return Date.UTC(y, m - 1, d) / 86_400_000;
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** Inverse of `isoDayNumber` (Hinnant's civil-from-days), years 0000–9999. */
export function dayNumberToIso(day: number): string {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, '0')}-${pad2(m)}-${pad2(d)}`;
}

/** `date` shifted by `days` calendar days. */
export function addIsoDays(date: string, days: number): string {
  return dayNumberToIso(isoDayNumber(date) + days);
}

/** Day of the week, 0 = Sunday … 6 = Saturday (as `Date#getUTCDay`). */
export function isoWeekday(date: string): number {
  // 1970-01-01 was a Thursday (4).
  return (((isoDayNumber(date) + 4) % 7) + 7) % 7;
}
