import { createHash } from 'node:crypto';
import { isoDayNumber, localDateOfMicros, nextUsTradingDay } from '@asof/calendar';
import type { MemberSpan, SeriesPoints } from './load-question-data.ts';

/** A universe series as inputs are chosen from it. */
export interface UniverseSeries {
  seriesId: string;
  entityId: string;
  source: string;
  frequency: string;
}

/** What every family's generator reads besides the series it asks about. */
export interface GenerationContext {
  cutoff: number;
  runDate: number;
  seed: string;
  spans: Map<string, MemberSpan[]>;
  /** entity_id → every series of the universe with that entity (inputs). */
  entitySeries: Map<string, UniverseSeries[]>;
  /** How many bars before t a price input reaches back (null: the whole history). */
  priceLookbackBars: number | null;
}

/** A hex digest ordering candidates and subjects: the same seed and key give the same order anywhere. */
export function sampleKey(seed: string, key: string): string {
  return createHash('sha256').update(`${seed}|${key}`).digest('hex');
}

/** The New York date (YYYY-MM-DD) of an instant: a bar's session day. */
export function nyDate(us: number): string {
  return localDateOfMicros(us, 'America/New_York');
}

/** Monday-based week number of a New York date (day 0 = 1970-01-01, a Thursday). */
export function weekOf(date: string): number {
  return Math.floor((isoDayNumber(date) + 3) / 7);
}

/** The US trading day `h` sessions after `date`: the expected date of an open (T3) price target. */
export function usTradingDaysAfter(date: string, h: number): string {
  let d = date;
  for (let k = 0; k < h; k++) d = nextUsTradingDay(d);
  return d;
}

const WEEK_END_BARS = new WeakMap<SeriesPoints, { index: number[]; dates: string[] }>();

/**
 * The bars that end their week in a series (the weekly question dates; the last bar counts) and every
 * bar's New York date: computed once per series, as VAL, EVT and RANK all read them.
 */
export function weekEndBars(p: SeriesPoints): { index: number[]; dates: string[] } {
  const known = WEEK_END_BARS.get(p);
  if (known !== undefined) return known;
  const dates = Array.from(p.ts, nyDate);
  const index: number[] = [];
  for (let i = 0; i < dates.length; i++) {
    if (i + 1 === dates.length || weekOf(dates[i + 1]) !== weekOf(dates[i])) index.push(i);
  }
  const bars = { index, dates };
  WEEK_END_BARS.set(p, bars);
  return bars;
}

/** Ordered by value, highest first, ties by series id: a RANK ranking. */
export function rankDescending(values: Map<string, number>): string[] {
  return [...values.keys()].sort((a, b) => {
    const d = (values.get(b) as number) - (values.get(a) as number);
    return d !== 0 && !Number.isNaN(d) ? d : a < b ? -1 : a > b ? 1 : 0;
  });
}
