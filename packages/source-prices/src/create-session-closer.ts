import { usNonTradingReason, usSessionClose, zonedMicros } from '@asof/calendar';
import type { Micros } from '@asof/schema';
import type { PriceKind } from '@asof/taxonomy';
import type { BarCalendar } from './check-bar-quality.ts';

/** The calendar an instrument's bars are checked and dated on when none is given: crypto trades every day. */
export function defaultPriceCalendar(kind: PriceKind | string, timeZone: string): BarCalendar {
  if (kind === 'crypto' || kind === 'crypto_other') return 'all_days';
  return timeZone === 'America/New_York' ? 'us' : 'weekdays';
}

/**
 * The instant of a bar's date, epoch µs: the US session close (16:00 or 13:00 New York) on the `us` calendar's
 * trading days, the day's last microsecond for `all_days`, else `sessionCloseTime` (default 16:00) in the
 * exchange zone. Cached per date: vintages share dates.
 */
export function createSessionCloser(
  calendar: BarCalendar,
  timeZone: string,
  sessionCloseTime = '16:00',
): (date: string) => Micros {
  const cache = new Map<string, Micros>();
  return (date) => {
    let us = cache.get(date);
    if (us === undefined) {
      if (calendar === 'us' && usNonTradingReason(date) === null) us = usSessionClose(date).micros;
      else if (calendar === 'all_days') us = zonedMicros(date, '23:59:59.999999', timeZone);
      else us = zonedMicros(date, sessionCloseTime, timeZone);
      cache.set(date, us);
    }
    return us;
  };
}
