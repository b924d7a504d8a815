import { InputError } from '@asof/schema';
import { dayNumberToIso, isoDayNumber, isoWeekday } from './iso-day.ts';
import type { Micros } from './zoned-micros.ts';
import { zonedMicros } from './zoned-micros.ts';

/**
 * US equity exchange calendar (NYSE rules; Nasdaq follows the same holidays and early closes).
 *
 * Modelled: the regular holidays as observed since 1971 (Monday holidays act), MLK Day from 1998,
 * Juneteenth from 2022, Good Friday, the Saturday/Sunday observance rules (a Saturday holiday moves to
 * Friday, except New Year's Day, which is then not observed; a Sunday holiday moves to Monday), the
 * unscheduled full-day closures since 1972, and the scheduled early closes (13:00, 14:00 in 1990–1992).
 * Not modelled: intraday halts and odd one-off closes such as 1997-10-27 15:30 or 2005-06-01 15:56 (those
 * days count as 16:00 closes), and anything before 1971. Reference: NYSE "Closings" history as transcribed
 * by pandas_market_calendars (holidays_nyse.py).
 */

export const US_EXCHANGE_TIME_ZONE = 'America/New_York';

export type SessionCloseTime = '16:00' | '14:00' | '13:00';

export interface SessionClose {
  /** Wall-clock close in America/New_York. */
  time: SessionCloseTime;
  /** The close as epoch microseconds (DST-correct). */
  micros: Micros;
}

/** Unscheduled full-day closures (weather, mourning, emergencies), 1972 onward. */
const SPECIAL_CLOSURES: Record<string, string> = {
  '1972-11-07': 'Election Day',
  '1972-12-28': 'Funeral of President Truman',
  '1973-01-25': 'Funeral of President Johnson',
  '1976-11-02': 'Election Day',
  '1977-07-14': 'New York City blackout',
  '1980-11-04': 'Election Day',
  '1985-09-27': 'Hurricane Gloria',
  '1994-04-27': 'Funeral of President Nixon',
  '2001-09-11': 'September 11 attacks',
  '2001-09-12': 'September 11 attacks',
  '2001-09-13': 'September 11 attacks',
  '2001-09-14': 'September 11 attacks',
  '2004-06-11': 'National day of mourning for President Reagan',
  '2007-01-02': 'National day of mourning for President Ford',
  '2012-10-29': 'Hurricane Sandy',
  '2012-10-30': 'Hurricane Sandy',
  '2018-12-05': 'National day of mourning for President G. H. W. Bush',
  '2025-01-09': 'National day of mourning for President Carter',
};

/** Early closes that no yearly rule produces. */
const SPECIAL_EARLY_CLOSES: Record<string, SessionCloseTime> = {
  '1990-12-24': '14:00',
  '1991-12-24': '14:00',
  '1992-12-24': '14:00',
  '1996-12-24': '13:00',
  '1997-12-24': '13:00',
  '1997-12-26': '13:00',
  '1998-12-24': '13:00',
  '2003-12-26': '13:00',
};

interface YearCalendar {
  holidays: Map<string, string>;
  earlyCloses: Map<string, SessionCloseTime>;
}

const yearCache = new Map<number, YearCalendar>();
const closeCache = new Map<string, SessionClose>();

function nthWeekdayOfMonth(year: number, month: number, weekday: number, n: number): number {
  const first = Date.UTC(year, month - 1, 1) / 86_400_000;
  const firstWeekday = (((first + 4) % 7) + 7) % 7;
  return first + ((weekday - firstWeekday + 7) % 7) + (n - 1) * 7;
}

function lastWeekdayOfMonth(year: number, month: number, weekday: number): number {
  const last = Date.UTC(year, month, 0) / 86_400_000;
  const lastWeekday = (((last + 4) % 7) + 7) % 7;
  return last - ((lastWeekday - weekday + 7) % 7);
}

/** Gregorian Easter Sunday (anonymous Gregorian algorithm), as a day number. */
function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day) / 86_400_000;
}

/** Saturday → Friday, Sunday → Monday (pandas' `nearest_workday`). */
function nearestWorkday(day: number): number {
  const wd = (((day + 4) % 7) + 7) % 7;
  if (wd === 6) return day - 1;
  if (wd === 0) return day + 1;
  return day;
}

function fixed(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day) / 86_400_000;
}

function buildYear(year: number): YearCalendar {
  const holidays = new Map<string, string>();
  const add = (day: number, name: string): void => {
    holidays.set(dayNumberToIso(day), name);
  };
  const newYear = fixed(year, 1, 1);
  const newYearWd = isoWeekday(dayNumberToIso(newYear));
  // A Saturday New Year's Day is not observed on Friday Dec 31 (NYSE rule 7.2).
  if (newYearWd === 0) add(newYear + 1, "New Year's Day (observed)");
  else if (newYearWd !== 6) add(newYear, "New Year's Day");
  if (year >= 1998) add(nthWeekdayOfMonth(year, 1, 1, 3), 'Martin Luther King Jr. Day');
  add(nthWeekdayOfMonth(year, 2, 1, 3), "Washington's Birthday");
  add(easterSunday(year) - 2, 'Good Friday');
  add(lastWeekdayOfMonth(year, 5, 1), 'Memorial Day');
  if (year >= 2022) add(nearestWorkday(fixed(year, 6, 19)), 'Juneteenth');
  add(nearestWorkday(fixed(year, 7, 4)), 'Independence Day');
  add(nthWeekdayOfMonth(year, 9, 1, 1), 'Labor Day');
  const thanksgiving = nthWeekdayOfMonth(year, 11, 4, 4);
  add(thanksgiving, 'Thanksgiving Day');
  add(nearestWorkday(fixed(year, 12, 25)), 'Christmas Day');
  for (const [date, name] of Object.entries(SPECIAL_CLOSURES)) {
    if (date.startsWith(`${year}-`)) holidays.set(date, name);
  }

  const earlyCloses = new Map<string, SessionCloseTime>();
  const early = (day: number, time: SessionCloseTime): void => {
    const date = dayNumberToIso(day);
    const wd = isoWeekday(date);
    if (wd !== 0 && wd !== 6 && !holidays.has(date)) earlyCloses.set(date, time);
  };
  const july3 = fixed(year, 7, 3);
  const july3Wd = isoWeekday(dayNumberToIso(july3));
  // Day before Independence Day: Mon/Tue/Thu since 1995; Wednesday only since 2013, when the
  // Friday-after rule (July 5, 1996–2012) was dropped.
  if (year >= 1995 && (july3Wd === 1 || july3Wd === 2 || july3Wd === 4)) early(july3, '13:00');
  if (year >= 2013 && july3Wd === 3) early(july3, '13:00');
  if (year >= 1996 && year <= 2012 && isoWeekday(dayNumberToIso(fixed(year, 7, 5))) === 5) {
    early(fixed(year, 7, 5), '13:00');
  }
  if (year === 1992) early(thanksgiving + 1, '14:00');
  if (year >= 1993) early(thanksgiving + 1, '13:00');
  const dec24 = fixed(year, 12, 24);
  const dec24Wd = isoWeekday(dayNumberToIso(dec24));
  if (year >= 1999 && dec24Wd >= 1 && dec24Wd <= 4) early(dec24, '13:00');
  for (const [date, time] of Object.entries(SPECIAL_EARLY_CLOSES)) {
    if (date.startsWith(`${year}-`)) early(isoDayNumber(date), time);
  }
  return { holidays, earlyCloses };
}

function yearCalendar(year: number): YearCalendar {
  let cal = yearCache.get(year);
  if (!cal) {
    cal = buildYear(year);
    yearCache.set(year, cal);
  }
  return cal;
}

/** NYSE full-day holidays and closures of `year`: date → name. */
export function usExchangeHolidays(year: number): Map<string, string> {
  return new Map(yearCalendar(year).holidays);
}

/** Scheduled early closes of `year`: date → close time. */
export function usEarlyCloses(year: number): Map<string, SessionCloseTime> {
  return new Map(yearCalendar(year).earlyCloses);
}

/** Why `date` is not a trading day (weekend or the holiday's name), or null when it is one. */
export function usNonTradingReason(date: string): string | null {
  const wd = isoWeekday(date);
  if (wd === 0 || wd === 6) return wd === 0 ? 'Sunday' : 'Saturday';
  return yearCalendar(Number(date.slice(0, 4))).holidays.get(date) ?? null;
}

/** True when US exchanges hold a regular session on `date` (YYYY-MM-DD, exchange-local). */
export function isUsTradingDay(date: string): boolean {
  return usNonTradingReason(date) === null;
}

/**
 * The session close of a US trading day: 16:00 America/New_York, or 13:00 (14:00 in 1990–1992) on an
 * early-close day, as epoch microseconds (DST-correct). Throws when `date` is not a trading day.
 */
export function usSessionClose(date: string): SessionClose {
  const cached = closeCache.get(date);
  if (cached) return cached;
  const reason = usNonTradingReason(date);
  if (reason !== null) {
    throw new InputError(
      'NOT_A_TRADING_DAY',
      `${date} is not a US trading day (${reason}); no session close`,
      {
        context: { date, reason },
      },
    );
  }
  const time = yearCalendar(Number(date.slice(0, 4))).earlyCloses.get(date) ?? '16:00';
  const close: SessionClose = { time, micros: zonedMicros(date, time, US_EXCHANGE_TIME_ZONE) };
  closeCache.set(date, close);
  return close;
}

/** US trading days from `from` to `to`, both inclusive, ascending. */
export function usTradingDays(from: string, to: string): string[] {
  const out: string[] = [];
  const end = isoDayNumber(to);
  for (let day = isoDayNumber(from); day <= end; day++) {
    const date = dayNumberToIso(day);
    if (isUsTradingDay(date)) out.push(date);
  }
  return out;
}

/** The first US trading day strictly after `date`. */
export function nextUsTradingDay(date: string): string {
  let day = isoDayNumber(date) + 1;
  while (!isUsTradingDay(dayNumberToIso(day))) day++;
  return dayNumberToIso(day);
}

/** The last US trading day strictly before `date`. */
export function previousUsTradingDay(date: string): string {
  let day = isoDayNumber(date) - 1;
  while (!isUsTradingDay(dayNumberToIso(day))) day--;
  return dayNumberToIso(day);
}

/**
 * The weekday (BD) grid of SPEC §1: every Monday–Friday from `from` to `to` inclusive, holidays included
 * (FinVerse counts 260 steps a year). Task steps use this grid; bars use `usTradingDays`.
 */
export function weekdayGrid(from: string, to: string): string[] {
  const out: string[] = [];
  const end = isoDayNumber(to);
  for (let day = isoDayNumber(from); day <= end; day++) {
    const wd = (((day + 4) % 7) + 7) % 7;
    if (wd !== 0 && wd !== 6) out.push(dayNumberToIso(day));
  }
  return out;
}
