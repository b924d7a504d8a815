import { daysInMonth, InputError, MONTH_NAMES } from '@asof/schema';

/*
 * The one strict reader of calendar dates and instants in raw files. `Date.parse` and `new Date(y, m, d)`
 * roll impossible dates over (2020-04-31 becomes 2020-05-01) and read a zone-less time in the machine's
 * zone, so a typo in a raw file would silently move an observation or its availability. These checks read
 * the digits and compare them with the calendar instead, and allocate nothing on the valid path (price and
 * companyfacts ingest call them once per row).
 */

function digits(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return Number.NaN;
    n = n * 10 + c;
  }
  return n;
}

/** Why `value` is not a calendar date written YYYY-MM-DD, or null when it is one (2020-04-31 is not). */
export function isoDateProblem(value: unknown): string | null {
  if (typeof value !== 'string')
    return `expected a date as YYYY-MM-DD, got a ${value === null ? 'null' : typeof value}`;
  if (value.length !== 10 || value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45) {
    return 'expected a date as YYYY-MM-DD';
  }
  const y = digits(value, 0, 4);
  const m = digits(value, 5, 7);
  const d = digits(value, 8, 10);
  if (Number.isNaN(y) || Number.isNaN(m) || Number.isNaN(d)) return 'expected a date as YYYY-MM-DD';
  if (m < 1 || m > 12) return `there is no month ${value.slice(5, 7)}`;
  const max = daysInMonth(y, m);
  if (d < 1 || d > max) return `${MONTH_NAMES[m - 1]} ${value.slice(0, 4)} has ${max} days`;
  return null;
}

/** True for a calendar date written YYYY-MM-DD (2023-02-29 and 2020-04-31 are not). */
export function isIsoDate(value: unknown): value is string {
  return isoDateProblem(value) === null;
}

/**
 * What is wrong with `value` as a calendar date, phrased for a message (`expected a date as YYYY-MM-DD,
 * got "03/05/2021"`, `"2020-04-31" is not a calendar date (April 2020 has 30 days)`), or null when it is one.
 */
export function badDateMessage(value: unknown): string | null {
  const problem = isoDateProblem(value);
  if (problem === null) return null;
  return problem.startsWith('expected')
    ? `${problem}, got ${JSON.stringify(value) ?? String(value)}`
    : `${JSON.stringify(value)} is not a calendar date (${problem})`;
}

/**
 * `value` when it is a calendar date YYYY-MM-DD, else an InputError (code BAD_DATE) whose message starts
 * with `where` (name the file, the row or JSON path, and the field) and says what is wrong.
 */
export function checkIsoDate(value: unknown, where: string): string {
  const message = badDateMessage(value);
  if (message !== null) {
    throw new InputError('BAD_DATE', `${where}: ${message}; fix the raw file`, { context: { where, value } });
  }
  return value as string;
}

const INSTANT_RE =
  /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Why `value` is not an ISO-8601 instant with an explicit zone (`2021-07-20T20:00:00Z`,
 * `2021-07-20T16:00:00-04:00`), or null when it is one. A zone-less time is refused: it names no instant.
 */
export function isoInstantProblem(value: unknown): string | null {
  if (typeof value !== 'string')
    return `expected an ISO-8601 instant, got a ${value === null ? 'null' : typeof value}`;
  const m = INSTANT_RE.exec(value);
  if (m === null) return 'expected an ISO-8601 instant like 2021-07-20T20:00:00Z';
  const dateProblem = isoDateProblem(m[1]);
  if (dateProblem !== null) return dateProblem;
  if (Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4] ?? 0) > 59) {
    return `${m[2]}:${m[3]}${m[4] === undefined ? '' : `:${m[4]}`} is not a time of day (00:00:00 to 23:59:59)`;
  }
  const zone = m[6];
  if (zone === undefined) {
    return 'it has no time zone; add Z (UTC) or an offset like -05:00';
  }
  if (zone !== 'Z') {
    const hh = Number(zone.slice(1, 3));
    const mm = zone.length > 3 ? Number(zone.slice(-2)) : 0;
    if (hh > 14 || mm > 59) return `${zone} is not a UTC offset (-12:00 to +14:00)`;
  }
  return null;
}

/** True for an ISO-8601 instant with an explicit zone and a real calendar date and time of day. */
export function isIsoInstant(value: unknown): value is string {
  return isoInstantProblem(value) === null;
}

/** Like `badDateMessage`, for an instant with a zone. */
export function badInstantMessage(value: unknown): string | null {
  const problem = isoInstantProblem(value);
  if (problem === null) return null;
  return problem.startsWith('expected')
    ? `${problem}, got ${JSON.stringify(value) ?? String(value)}`
    : `${JSON.stringify(value)} is not an instant (${problem})`;
}

/** `value` when it is an ISO instant with a zone, else an InputError (code BAD_INSTANT) starting with `where`. */
export function checkIsoInstant(value: unknown, where: string): string {
  const message = badInstantMessage(value);
  if (message !== null) {
    throw new InputError('BAD_INSTANT', `${where}: ${message}; fix the raw file`, {
      context: { where, value },
    });
  }
  return value as string;
}
