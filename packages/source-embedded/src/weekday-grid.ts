import { type Micros, zonedMicros } from '@asof/calendar';
import { isoDate } from './release-rules.ts';

export interface GridDay {
  date: string;
  /** 16:00 New York on that date. */
  close: Micros;
}

/** Weekdays from start to end inclusive (the BD grid of SPEC §1), each with its 16:00 New York close. */
export function weekdayGrid(start: string, end: string): GridDay[] {
  const out: GridDay[] = [];
  const [sy, sm, sd] = start.split('-').map(Number);
  const [ey, em, ed] = end.split('-').map(Number);
  const last = Date.UTC(ey, em - 1, ed);
  for (let t = Date.UTC(sy, sm - 1, sd); t <= last; t += 86_400_000) {
    const d = new Date(t);
    const dow = d.getUTCDay();
    if (dow === 0 || dow === 6) continue;
    const date = isoDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
    out.push({ date, close: zonedMicros(date, '16:00', 'America/New_York') });
  }
  return out;
}
