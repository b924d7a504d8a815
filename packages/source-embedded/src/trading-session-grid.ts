import { type Micros, usSessionClose, usTradingDays } from '@asof/calendar';

export interface GridDay {
  date: string;
  /** The session close in New York: 16:00, or 13:00 on an early-close day. */
  close: Micros;
}

/**
 * US trading sessions from start to end inclusive, each with its session close: the calendar the real price
 * sources use (`@asof/calendar`'s NYSE holidays and early closes). The synthetic panel trades on it too, so a
 * synthetic bar never falls on Christmas Day, and a split's origins follow the same sessions as real bars.
 */
export function tradingSessionGrid(start: string, end: string): GridDay[] {
  return usTradingDays(start, end).map((date) => ({ date, close: usSessionClose(date).micros }));
}
