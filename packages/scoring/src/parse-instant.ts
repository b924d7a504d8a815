import { daysInMonth, InputError, MONTH_NAMES } from '@asof/schema';

// YYYY-MM-DD, optionally followed by T (or a space, as pandas writes) hh:mm[:ss[.fraction]] and a zone.
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?)?$/;

/**
 * An ISO date or instant as epoch milliseconds, or the reason it is not one. Strict where Date.parse is
 * not: a day past the end of its month (`2020-04-31`, `2021-02-29`) is refused rather than rolled into the
 * next month, and a time of day must carry a zone (`Z` or `±hh:mm`), since a zone-less instant means a
 * different moment on every machine. A bare date is 00:00 UTC. Digits below the millisecond are dropped.
 */
export function instantOf(text: string): number | { reason: string } {
  const m = ISO.exec(text);
  if (!m) return { reason: 'is not an ISO date (YYYY-MM-DD) or instant (YYYY-MM-DDThh:mm:ssZ)' };
  const [, y, mo, d, hh, mi, ss, frac, z, sign, oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12) return { reason: `has month ${mo}; months are 01…12` };
  if (day < 1 || day > daysInMonth(year, month)) {
    return {
      reason: `has day ${d}, but ${MONTH_NAMES[month - 1]} ${year} has ${daysInMonth(year, month)} days`,
    };
  }
  if (hh !== undefined && z === undefined && sign === undefined) {
    return { reason: 'has a time of day but no zone; append Z (UTC) or an offset such as +01:00' };
  }
  const hour = hh === undefined ? 0 : Number(hh);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = ss === undefined ? 0 : Number(ss);
  if (hour > 23 || minute > 59 || second > 59) {
    return { reason: `has time ${hh}:${mi}${ss === undefined ? '' : `:${ss}`}; expected 00:00:00…23:59:59` };
  }
  const offsetH = oh === undefined ? 0 : Number(oh);
  const offsetM = om === undefined ? 0 : Number(om);
  if (offsetH > 23 || offsetM > 59) return { reason: `has zone offset ${sign}${oh}:${om ?? '00'}` };
  const ms = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, '0'));
  const at = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0…99 to 1900…1999.
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second, ms);
  const offset = (sign === '-' ? -1 : 1) * (offsetH * 60 + offsetM) * 60_000;
  return at.getTime() - offset;
}

/**
 * An origin as epoch milliseconds, the key origins are matched on (see instantOf for what is accepted).
 * `where` names the place for the message, e.g. `split origins row 3`.
 */
export function parseInstant(text: string, where: string): number {
  const ms = instantOf(text);
  if (typeof ms !== 'number') {
    throw new InputError(
      'SCORE_BAD_ORIGIN',
      `${where}: origin ${JSON.stringify(text)} ${ms.reason}; write e.g. 2024-01-31 or 2024-01-31T00:00:00Z`,
      { context: { where, field: 'origin', value: text } },
    );
  }
  return ms;
}
