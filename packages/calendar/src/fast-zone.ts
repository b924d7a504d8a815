import type { Micros } from './zoned-micros.ts';

/**
 * Zone offsets for zonedMicros and localDateOfMicros, which sources call per row. `@date-fns/tz`'s TZDate
 * costs tens of microseconds a call; one cached Intl.DateTimeFormat per zone is several times cheaper,
 * and the offset caches (per zone and day, and per quarter hour on days the offset changes) make repeated
 * days free. A wall time in a DST gap or overlap goes to TZDate (zonedMicros), so its rule applies.
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

const QUARTER_HOUR = 900_000;
const DAY = 86_400_000;
/** Per zone and UTC day: the offset when it is the same all day, NaN on a day the offset changes. */
const dayOffsetCache = new Map<string, Map<number, number>>();

/** True when `timeZone` is an IANA time zone this runtime knows (e.g. America/New_York). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Offset of `timeZone` from UTC at instant `utcMs`, in ms (New York in July: -4 h). */
export function zoneOffsetMs(utcMs: number, timeZone: string): number {
  let days = dayOffsetCache.get(timeZone);
  if (!days) {
    days = new Map();
    dayOffsetCache.set(timeZone, days);
  }
  // Most days have one offset: two lookups decide it for the whole day, so instants spread over the
  // day (filing acceptance times) need no lookup of their own. This assumes no zone changes its offset
  // and back within one day.
  const day = Math.floor(utcMs / DAY);
  let whole = days.get(day);
  if (whole === undefined) {
    const first = quarterHourOffsetMs((day * DAY) / QUARTER_HOUR, timeZone);
    const last = quarterHourOffsetMs(((day + 1) * DAY) / QUARTER_HOUR - 1, timeZone);
    whole = first === last ? first : Number.NaN;
    days.set(day, whole);
  }
  return Number.isNaN(whole) ? quarterHourOffsetMs(Math.floor(utcMs / QUARTER_HOUR), timeZone) : whole;
}

/** The offset during quarter hour `bucket` (since the epoch, UTC). */
function quarterHourOffsetMs(bucket: number, timeZone: string): number {
  let cache = offsetCache.get(timeZone);
  if (!cache) {
    cache = new Map();
    offsetCache.set(timeZone, cache);
  }
  // Offsets change only at whole quarter hours (every zone in the tz database since 1970).
  const hit = cache.get(bucket);
  if (hit !== undefined) return hit;
  const at = bucket * QUARTER_HOUR;
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

/** Calendar date (YYYY-MM-DD) of an instant as seen in `timeZone`. */
export function localDateOfMicros(us: Micros, timeZone: string): string {
  const ms = Math.floor(us / 1000);
  return new Date(ms + zoneOffsetMs(ms, timeZone)).toISOString().slice(0, 10);
}

/**
 * The UTC instant (ms) at which the wall clock in `timeZone` reads `wallMs` (the wall time written as if
 * it were UTC), or NaN when that wall time falls in a DST gap or is shown twice (an overlap): the caller
 * applies its own rule to those.
 */
export function wallTimeToUtcMs(wallMs: number, timeZone: string): number {
  const first = wallMs - zoneOffsetMs(wallMs, timeZone);
  const off = zoneOffsetMs(first, timeZone);
  const second = wallMs - off;
  if (zoneOffsetMs(second, timeZone) !== off) return Number.NaN;
  // Overlap (fall back): the wall time exists twice.
  const otherOff = zoneOffsetMs(second - 3_600_000, timeZone);
  if (otherOff !== off && zoneOffsetMs(wallMs - otherOff, timeZone) === otherOff) return Number.NaN;
  return second;
}
