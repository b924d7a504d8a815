import { z } from 'zod';

function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return (
    d.getUTCFullYear() === Number(m[1]) &&
    d.getUTCMonth() === Number(m[2]) - 1 &&
    d.getUTCDate() === Number(m[3])
  );
}

/** A calendar date written YYYY-MM-DD (2023-02-30 is refused). */
export const IsoDate = z.string().refine(isCalendarDate, {
  error: (iss) => `expected a calendar date as YYYY-MM-DD, got ${JSON.stringify(iss.input)}`,
});
