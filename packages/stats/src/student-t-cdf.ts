import { InputError } from '@asof/schema';
import { regularizedIncompleteBeta } from './regularized-incomplete-beta.ts';

/**
 * P(T ≤ t) for Student's t with `df` degrees of freedom, via
 * P(T ≤ t) = 1 − ½·I_{df/(df+t²)}(df/2, ½) for t > 0, and the mirror image for t < 0.
 * Each tail is computed directly (not as 1 − cdf), so small one-sided p-values keep their precision.
 */
export function studentTCdf(t: number, df: number): number {
  if (!(df > 0)) {
    throw new InputError('METRIC_BAD_PARAMETER', `studentTCdf: df is ${df}, expected > 0.`, {
      context: { df },
    });
  }
  if (Number.isNaN(t)) return Number.NaN;
  if (t === Number.POSITIVE_INFINITY) return 1;
  if (t === Number.NEGATIVE_INFINITY) return 0;
  if (t === 0) return 0.5;
  const tail = 0.5 * regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t > 0 ? 1 - tail : tail;
}

/** P(T ≥ t) = studentTCdf(−t, df), exact in the upper tail. */
export function studentTSurvival(t: number, df: number): number {
  return studentTCdf(-t, df);
}
