import { InputError } from '@asof/schema';
import { TZDate } from '@date-fns/tz';
import { wallTimeToUtcMs } from './fast-zone.ts';
import { badDateMessage, isoInstantProblem } from './strict-dates.ts';

/** Epoch microseconds. A JS double holds them exactly up to 2^53 µs (year 2255). */
export type Micros = number;

const INSTANT_PARTS =
  /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d{1,9}))?(Z|[+-]\d{2}(?::?\d{2})?)$/;
const TIME_RE = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?$/;

/** Parses `YYYY-MM-DD` into [year, month(1-12), day], rejecting impossible dates such as 2023-02-30. */
export function parseIsoDate(date: string, where = 'date'): [number, number, number] {
  const message = badDateMessage(date);
  if (message !== null) {
    throw new InputError('BAD_DATE', `${where}: ${message}`, { context: { where, value: date } });
  }
  return [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
}

/**
 * The instant at which the wall clock in `timeZone` shows `date` `time` (e.g. 08:30 America/New_York),
 * in epoch microseconds. DST-correct. For a wall time that does not exist (spring-forward gap) the
 * later offset is used, which is the conservative choice for availability; a wall time shown twice
 * (fall back) takes TZDate's choice. Offsets come from the cached Intl path (fast-zone.ts); TZDate
 * decides only those two cases.
 */
export function zonedMicros(date: string, time: string, timeZone: string): Micros {
  const [y, mo, d] = parseIsoDate(date);
  const t = TIME_RE.exec(time);
  if (!t)
    throw new InputError('BAD_TIME', `expected a time as HH:MM[:SS[.ffffff]], got ${JSON.stringify(time)}`);
  const frac = (t[4] ?? '').padEnd(6, '0');
  const ms = Number(frac.slice(0, 3));
  const us = Number(frac.slice(3, 6));
  const [h, mi, sec] = [Number(t[1]), Number(t[2]), Number(t[3] ?? 0)];
  let utcMs = wallTimeToUtcMs(Date.UTC(y, mo - 1, d, h, mi, sec, ms), timeZone);
  if (Number.isNaN(utcMs)) utcMs = new TZDate(y, mo - 1, d, h, mi, sec, ms, timeZone).getTime();
  return utcMs * 1000 + us;
}

/** End of a calendar day in `timeZone`: 23:59:59.999999 local (SPEC §1 period ends). */
export function endOfDayMicros(date: string, timeZone = 'America/New_York'): Micros {
  return zonedMicros(date, '23:59:59.999999', timeZone);
}

/** ISO-8601 UTC text with microseconds, e.g. 2021-07-20T20:00:00.000000Z. */
export function microsToIso(us: Micros): string {
  const ms = Math.floor(us / 1000);
  const rest = us - ms * 1000;
  const base = new Date(ms).toISOString(); // ...SS.mmmZ
  return `${base.slice(0, -1)}${String(rest).padStart(3, '0')}Z`;
}

/** Parses an ISO instant with an explicit zone (Z or ±HH:MM) into epoch microseconds; naive times are refused. */
export function isoToMicros(iso: string, where = 'instant'): Micros {
  const problem = isoInstantProblem(iso);
  const m = problem === null ? INSTANT_PARTS.exec(iso) : null;
  if (m === null) {
    throw new InputError(
      'BAD_INSTANT',
      `${where}: expected an ISO-8601 instant with a zone (…Z or …+HH:MM), got ${JSON.stringify(iso)} (${problem})`,
      { context: { where, value: iso } },
    );
  }
  // Every field was range-checked above, so Date.parse has nothing left to roll over.
  const z = m[4];
  const zone = z === 'Z' ? z : `${z.slice(0, 3)}:${z.length === 3 ? '00' : z.slice(-2)}`;
  const whole = Date.parse(`${m[1]}T${m[2].length === 5 ? `${m[2]}:00` : m[2]}${zone}`);
  const frac = (m[3] ?? '').padEnd(6, '0').slice(0, 6);
  return whole * 1000 + Number(frac);
}
