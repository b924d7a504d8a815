import { addIsoDays, isoWeekday } from '@asof/calendar';
import type { MiniObservation } from './write-mini-universe.ts';

/** The last second of month `m` (1–12) of year `y`, as an ISO instant: a monthly or quarterly timestamp. */
export function monthEnd(y: number, m: number): string {
  return `${new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10)}T23:59:59Z`;
}

/** `days` after the date of `iso`, at `time` UTC (a release: 13:30 UTC is 8:30 New York in winter). */
export function plusDays(iso: string, days: number, time = '13:30:00'): string {
  return `${addIsoDays(iso.slice(0, 10), days)}T${time}Z`;
}

/**
 * Daily bars of `seriesId` on every weekday from `from` to `to` (YYYY-MM-DD), at 21:00 UTC and available at
 * the bar (its close): `value(t, i)` gives the i-th bar's value at instant t.
 */
export function weekdayBars(
  seriesId: string,
  from: string,
  to: string,
  value: (t: string, i: number) => number,
): MiniObservation[] {
  const bars: MiniObservation[] = [];
  for (let d = from; d <= to; d = addIsoDays(d, 1)) {
    const wd = isoWeekday(d);
    if (wd === 0 || wd === 6) continue;
    const t = `${d}T21:00:00Z`;
    bars.push({
      series_id: seriesId,
      timestamp: t,
      available_at: t,
      value: value(t, bars.length),
      available_at_basis: 'bar_close',
    });
  }
  return bars;
}
