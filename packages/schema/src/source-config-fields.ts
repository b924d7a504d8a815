import { z } from 'zod';
import { IsoDate } from './iso-date.ts';

// Fields several sources' config schemas share (each source package composes its own section from them),
// kept in one place so that every section reads a seed, a ticker or a synthetic date alike.

/** The last date a synthetic history may end on. */
export const SYNTHETIC_LAST_DATE = '2999-12-31';

/**
 * A date of a synthetic history: its releases and revisions are dated after its end, so an end near 9999
 * would make dates no one typed (`+010000-01`); refused here, naming the field and the value (audit 15.9).
 */
export const SyntheticDate = IsoDate.refine((d) => d <= SYNTHETIC_LAST_DATE, {
  error: (issue) =>
    `${JSON.stringify(issue.input)} is later than ${SYNTHETIC_LAST_DATE}, the last date a synthetic history may end on (its releases and revisions are dated after it)`,
});

/** An empty date range is a typo, not a request for nothing: refuse end before start. */
export function startNotAfterEnd(ctx: z.core.ParsePayload<{ start: string; end: string }>): void {
  const { start, end } = ctx.value;
  if (start > end) {
    ctx.issues.push({
      code: 'custom',
      input: ctx.value,
      path: ['end'],
      message: `the range ${start} … ${end} is empty: end is before start; swap them or fix the typo`,
    });
  }
}

/** The seed of a synthetic generator. */
export const Seed = z.number().int().nonnegative().describe('seed of the counter-based PRNG');

/** Live tickers or symbols. */
export const Tickers = z
  .array(z.string().regex(/^[A-Za-z0-9.\-^=]+$/, 'a ticker such as AAPL or BRK-B'))
  .min(1);
