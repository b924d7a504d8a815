import { parseIsoDate } from '@asof/calendar';

/** Date arithmetic on `YYYY-MM-DD` strings (proleptic Gregorian, no time zone involved). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = parseIsoDate(date);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Last day of the month `months` after the month of `date` (0 = its own month). */
export function endOfMonth(date: string, months = 0): string {
  const [y, m] = parseIsoDate(date);
  return new Date(Date.UTC(y, m + months, 0)).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(date: string): number {
  const [y, m, d] = parseIsoDate(date);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

function ymd(y: number, m: number, d: number): string {
  return new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);
}

/** The n-th (1-based) `wd` weekday of a month, or the last one for n = -1. */
function nthWeekday(y: number, m: number, wd: number, n: number): string {
  if (n > 0) {
    const first = new Date(Date.UTC(y, m - 1, 1)).getUTCDay();
    return ymd(y, m, 1 + ((wd - first + 7) % 7) + 7 * (n - 1));
  }
  const lastDay = new Date(Date.UTC(y, m, 0));
  const back = (lastDay.getUTCDay() - wd + 7) % 7;
  return ymd(y, m, lastDay.getUTCDate() - back);
}

/** Saturday holidays are observed on Friday, Sunday holidays on Monday. */
function observed(date: string): string {
  const wd = weekday(date);
  return wd === 6 ? addDays(date, -1) : wd === 0 ? addDays(date, 1) : date;
}

const holidayCache = new Map<number, Set<string>>();

/**
 * US federal holidays (observed dates) of a year: the days the Federal Reserve, BLS and BEA do not publish.
 * Juneteenth counts from 2022 (first observed by the Board in 2022). Rules as in 5 U.S.C. 6103 since 1971;
 * earlier years use the same rules, which is close enough for a publication-lag estimate.
 */
export function usFederalHolidays(year: number): Set<string> {
  let set = holidayCache.get(year);
  if (set !== undefined) return set;
  set = new Set([
    observed(ymd(year, 1, 1)),
    nthWeekday(year, 1, 1, 3),
    nthWeekday(year, 2, 1, 3),
    nthWeekday(year, 5, 1, -1),
    observed(ymd(year, 7, 4)),
    nthWeekday(year, 9, 1, 1),
    nthWeekday(year, 10, 1, 2),
    observed(ymd(year, 11, 11)),
    nthWeekday(year, 11, 4, 4),
    observed(ymd(year, 12, 25)),
  ]);
  if (year >= 2022) set.add(observed(ymd(year, 6, 19)));
  // New Year's Day of the next year falling on a Saturday is observed on Dec 31 of this year.
  const nextNewYear = observed(ymd(year + 1, 1, 1));
  if (nextNewYear.startsWith(String(year))) set.add(nextNewYear);
  holidayCache.set(year, set);
  return set;
}

export function isUsBusinessDay(date: string): boolean {
  const wd = weekday(date);
  if (wd === 0 || wd === 6) return false;
  return !usFederalHolidays(Number(date.slice(0, 4))).has(date);
}

/** The first US business day strictly after `date`. */
export function nextUsBusinessDay(date: string): string {
  let d = addDays(date, 1);
  while (!isUsBusinessDay(d)) d = addDays(d, 1);
  return d;
}
