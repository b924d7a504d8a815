import type { Micros } from '@asof/calendar';
import { type Frequency, InputError } from '@asof/schema';
import { addDays, nextUsBusinessDay, weekday } from './fred-dates.ts';
import { cachedZoned } from './release-times.ts';

const ET = 'America/New_York';

/**
 * When a value of a series without vintages (a fredgraph CSV) is taken to be public, counted from the last
 * day of its period. Every rule ends at a wall-clock time in a zone (default America/New_York).
 * - `days_after_period_end`: period end + `days` calendar days (e.g. CPI: +32 days 08:30 ET, below).
 * - `first_weekday_after_period_end`: the first `weekday` (0 Sun … 6 Sat) after the period end (BLS
 *   Employment Situation: first Friday of the next month, 08:30 ET).
 * - `business_days_after_period_end`: the n-th US business day after the period end (H.15 daily rates: next
 *   business day 16:15 ET).
 * - `bls_employment_situation`: BLS's own rule, the third Friday after the week (Sun–Sat) holding the 12th of
 *   the month, pushed a week when that lands on January 1–4 (holidays: Dec 2019 data came 2020-01-10).
 *   "First Friday of the next month" is a week early in months like February 2017 (released 2017-03-10,
 *   first Friday 03-03), i.e. it would leak; this rule is never earlier in the cases checked.
 */
export type PublicationLagRule =
  | { kind: 'days_after_period_end'; days: number; time: string; timeZone?: string }
  | { kind: 'bls_employment_situation'; time: string; timeZone?: string }
  | { kind: 'first_weekday_after_period_end'; weekday: number; time: string; timeZone?: string }
  | { kind: 'business_days_after_period_end'; days: number; time: string; timeZone?: string };

const END_OF_DAY = '23:59:59.999999';

/**
 * Per-series rules for series read as CSV. The lags are the conservative end of the recorded history, not
 * the typical delay, because a rule that is early leaks: SPEC §4's example "CPI: period end + 15 days" is
 * earlier than the real CPI release in 58 of 180 months 2010–2024 (fred_api_release_dates_10.json: releases
 * came 9–32 days after the month, 2013's shutdown 30). +32 days is never early against that calendar
 * (1949–2024). GDP: the advance estimate came 26–32 days after the quarter except in the shutdown quarters
 * 1995Q4 (+54), 2013Q3 (+38) and 2018Q4 (+59) (first releases in the ALFRED GDP response); +32 days
 * leaves only those three early. With a release calendar (`release/dates`) the real dates are used instead.
 */
export const PUBLICATION_LAGS: Readonly<Record<string, PublicationLagRule>> = {
  CPIAUCSL: { kind: 'days_after_period_end', days: 32, time: '08:30' },
  CPIAUCNS: { kind: 'days_after_period_end', days: 32, time: '08:30' },
  CPILFESL: { kind: 'days_after_period_end', days: 32, time: '08:30' },
  PAYEMS: { kind: 'bls_employment_situation', time: '08:30' },
  UNRATE: { kind: 'bls_employment_situation', time: '08:30' },
  CIVPART: { kind: 'bls_employment_situation', time: '08:30' },
  GDP: { kind: 'days_after_period_end', days: 32, time: '08:30' },
  GDPC1: { kind: 'days_after_period_end', days: 32, time: '08:30' },
  DGS10: { kind: 'business_days_after_period_end', days: 1, time: '16:15' },
  DGS2: { kind: 'business_days_after_period_end', days: 1, time: '16:15' },
  DGS3MO: { kind: 'business_days_after_period_end', days: 1, time: '16:15' },
  DGS30: { kind: 'business_days_after_period_end', days: 1, time: '16:15' },
  DFF: { kind: 'business_days_after_period_end', days: 1, time: '16:15' },
  T10Y2Y: { kind: 'business_days_after_period_end', days: 1, time: '16:15' },
};

/** Conservative fallbacks by frequency, at the end of the day (unknown release time, SPEC §4). */
export const DEFAULT_PUBLICATION_LAGS: Readonly<Record<Frequency, PublicationLagRule>> = {
  D: { kind: 'business_days_after_period_end', days: 1, time: END_OF_DAY },
  BD: { kind: 'business_days_after_period_end', days: 1, time: END_OF_DAY },
  W: { kind: 'days_after_period_end', days: 7, time: END_OF_DAY },
  M: { kind: 'days_after_period_end', days: 35, time: END_OF_DAY },
  Q: { kind: 'days_after_period_end', days: 92, time: END_OF_DAY },
  A: { kind: 'days_after_period_end', days: 366, time: END_OF_DAY },
};

export function publicationLagFor(
  fredId: string,
  frequency: Frequency,
  overrides: Readonly<Record<string, PublicationLagRule>> = {},
): PublicationLagRule {
  return overrides[fredId] ?? PUBLICATION_LAGS[fredId] ?? DEFAULT_PUBLICATION_LAGS[frequency];
}

/** The date a rule puts the publication of a period ending on `periodEnd` (YYYY-MM-DD). */
export function publicationDate(periodEnd: string, rule: PublicationLagRule): string {
  switch (rule.kind) {
    case 'days_after_period_end':
      return addDays(periodEnd, rule.days);
    case 'first_weekday_after_period_end': {
      let d = addDays(periodEnd, 1);
      while (weekday(d) !== rule.weekday) d = addDays(d, 1);
      return d;
    }
    case 'bls_employment_situation': {
      const twelfth = `${periodEnd.slice(0, 7)}-12`;
      const saturday = addDays(twelfth, 6 - weekday(twelfth));
      const release = addDays(saturday, 20);
      return release.slice(5, 7) === '01' && release.slice(8) < '05' ? addDays(release, 7) : release;
    }
    case 'business_days_after_period_end': {
      let d = periodEnd;
      for (let i = 0; i < rule.days; i++) d = nextUsBusinessDay(d);
      return d;
    }
  }
}

function firstAfter(sorted: readonly string[], date: string): string | undefined {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= date) lo = mid + 1;
    else hi = mid;
  }
  return sorted[lo];
}

export interface RuleAvailability {
  available_at: Micros;
  /** The publication date used. */
  date: string;
  /** 'release_calendar' when a FRED release date was used, else 'lag'. */
  from: 'release_calendar' | 'lag';
}

/**
 * The release date of a period from a FRED release calendar (ascending dates). Daily and weekly values: the
 * first release date after the period end. Monthly, quarterly and annual values: the *last* release date
 * in the calendar month after the period end, because agencies add extra release dates early in a month
 * (BLS publishes revised CPI seasonal factors a few days before the January CPI, e.g. 2017-02-13 vs
 * 2017-02-15); taking the first would date January's CPI two days early. A month without a release date
 * (1996 and 2013 shutdowns) falls back to the first release date after the period end. undefined when
 * the calendar does not reach the period or the date is more than 400 days after its end.
 */
export function calendarReleaseDate(
  periodEnd: string,
  frequency: Frequency,
  releaseDates: readonly string[],
): string | undefined {
  let d: string | undefined;
  if (frequency === 'M' || frequency === 'Q' || frequency === 'A') {
    const nextMonth = addDays(periodEnd, 1).slice(0, 7);
    const first = firstAfter(releaseDates, periodEnd);
    if (first?.startsWith(nextMonth)) {
      let i = releaseDates.indexOf(first);
      while (i + 1 < releaseDates.length && releaseDates[i + 1].startsWith(nextMonth)) i++;
      d = releaseDates[i];
    } else {
      d = first;
    }
  } else {
    d = firstAfter(releaseDates, periodEnd);
  }
  return d !== undefined && d <= addDays(periodEnd, 400) ? d : undefined;
}

/**
 * available_at of a period from a rule (basis 'rule'): the release-calendar date (`calendarReleaseDate`)
 * when a calendar is given and covers the period, else the lag rule's date; at the rule's time of day.
 */
export function ruleAvailableAt(
  periodEnd: string,
  frequency: Frequency,
  rule: PublicationLagRule,
  releaseDates?: readonly string[],
): RuleAvailability {
  const tz = rule.timeZone ?? ET;
  if (releaseDates !== undefined && releaseDates.length > 0) {
    const d = calendarReleaseDate(periodEnd, frequency, releaseDates);
    if (d !== undefined) return { available_at: atTime(d, rule.time, tz), date: d, from: 'release_calendar' };
  }
  const d = publicationDate(periodEnd, rule);
  return { available_at: atTime(d, rule.time, tz), date: d, from: 'lag' };
}

function atTime(date: string, time: string, timeZone: string): Micros {
  try {
    return cachedZoned(date, time, timeZone);
  } catch (cause) {
    throw new InputError(
      'FRED_BAD_LAG_RULE',
      `publication-lag rule time ${JSON.stringify(time)}: expected HH:MM`,
      {
        cause,
      },
    );
  }
}
