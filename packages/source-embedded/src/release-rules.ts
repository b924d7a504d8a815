import { endOfDayMicros, type Micros, zonedMicros } from '@asof/calendar';

const NY = 'America/New_York';

export function isoDate(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export function lastDayOfMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** End of month (y, m) at 23:59:59.999999 New York time (SPEC §1 period timestamp). */
export function monthEndMicros(y: number, m: number): Micros {
  return endOfDayMicros(isoDate(y, m, lastDayOfMonth(y, m)), NY);
}

/** Adds `months` to (y, m). */
export function addMonths(y: number, m: number, months: number): [number, number] {
  const idx = y * 12 + (m - 1) + months;
  return [Math.floor(idx / 12), (idx % 12) + 1];
}

/**
 * BLS Employment Situation rule for data without release dates: the first Friday of the following month
 * at 08:30 New York time (SPEC §4, embedded real data). Known limitation: in months where BLS published on
 * the second Friday (first Friday on the 1st or 2nd), this rule is up to a week early; such series are
 * `static` and the manifest warns that their available_at is rule-based.
 */
export function firstFridayNextMonthMicros(y: number, m: number): Micros {
  const [ny, nm] = addMonths(y, m, 1);
  const dow = new Date(Date.UTC(ny, nm - 1, 1)).getUTCDay();
  const day = 1 + ((5 - dow + 7) % 7);
  return zonedMicros(isoDate(ny, nm, day), '08:30', NY);
}
