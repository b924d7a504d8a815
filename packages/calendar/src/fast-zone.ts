import { type Micros, parseIsoDate, zonedMicros } from './zoned-micros.ts';

/**
 * Fast paths for the two zone conversions that price ingest does per bar. `@date-fns/tz`'s TZDate costs
 * tens of microseconds a call; one cached Intl.DateTimeFormat per zone is several times cheaper, and the
 * offset cache (per zone and quarter hour) makes repeated days free. Results equal `microsToZonedDate` /
 * `zonedMicros`; a wall time in a DST gap or overlap is handed to `zonedMicros` so its rule applies.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsetCache = new Map<string, Map<number, number>>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Offset of `timeZone` from UTC at instant `utcMs`, in ms (New York in July: -4 h). */
export function zoneOffsetMs(utcMs: number, timeZone: string): number {
  let cache = offsetCache.get(timeZone);
  if (!cache) {
    cache = new Map();
    offsetCache.set(timeZone, cache);
  }
  // Offsets change only at whole quarter hours (every zone in the tz database since 1970).
  const bucket = Math.floor(utcMs / 900_000);
  const hit = cache.get(bucket);
  if (hit !== undefined) return hit;
  const at = bucket * 900_000;
  // "MM/DD/YYYY, HH:MM:SS"
  const s = formatter(timeZone).format(new Date(at));
  const local = Date.UTC(
    Number(s.slice(6, 10)),
    Number(s.slice(0, 2)) - 1,
    Number(s.slice(3, 5)),
    Number(s.slice(12, 14)),
    Number(s.slice(15, 17)),
    Number(s.slice(18, 20)),
  );
  const offset = local - at;
  cache.set(bucket, offset);
  return offset;
}

/** Calendar date (YYYY-MM-DD) of an instant in `timeZone`; same result as `microsToZonedDate`. */
export function localDateOfMicros(us: Micros, timeZone: string): string {
  const ms = Math.floor(us / 1000);
  return new Date(ms + zoneOffsetMs(ms, timeZone)).toISOString().slice(0, 10);
}

/** The instant the wall clock in `timeZone` shows `date` `time`; same result as `zonedMicros`. */
export function localTimeToMicros(date: string, time: string, timeZone: string): Micros {
  const m = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?$/.exec(time);
  if (!m) return zonedMicros(date, time, timeZone);
  const [y, mo, d] = parseIsoDate(date);
  const frac = (m[4] ?? '').padEnd(6, '0');
  const wall = Date.UTC(
    y,
    mo - 1,
    d,
    Number(m[1]),
    Number(m[2]),
    Number(m[3] ?? 0),
    Number(frac.slice(0, 3)),
  );
  const first = wall - zoneOffsetMs(wall, timeZone);
  const off = zoneOffsetMs(first, timeZone);
  const second = wall - off;
  if (zoneOffsetMs(second, timeZone) !== off) return zonedMicros(date, time, timeZone);
  // Overlap (fall back): the wall time exists twice; defer to zonedMicros' choice.
  const otherOff = zoneOffsetMs(second - 3_600_000, timeZone);
  if (otherOff !== off && zoneOffsetMs(wall - otherOff, timeZone) === otherOff)
    return zonedMicros(date, time, timeZone);
  return second * 1000 + Number(frac.slice(3, 6));
}
