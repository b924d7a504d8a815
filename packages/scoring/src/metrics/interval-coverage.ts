import { InputError } from '@asof/schema';
import { checkArrays, type NumericArray } from './check-arrays.ts';

export interface IntervalCoverage {
  /** Nominal central coverage, e.g. 0.8 for the q0.10–q0.90 interval. */
  nominal: number;
  /** Achieved share of outcomes with lower ≤ y ≤ upper (closed interval). Closer to nominal is better. */
  coverage: number;
  /** coverage − nominal: negative = intervals too narrow (over-confident). */
  coverageError: number;
  /** Mean of upper − lower. At equal coverage, narrower is better. */
  meanWidth: number;
  n: number;
}

/**
 * Tycheon "Interval coverage, width": achieved share of outcomes inside the central interval and its mean
 * width, for the 50/80/90% intervals (pass each interval's lower/upper quantiles separately).
 */
export function intervalCoverage(
  lower: NumericArray,
  upper: NumericArray,
  actual: NumericArray,
  nominal: number,
): IntervalCoverage {
  const n = checkArrays('intervalCoverage', { lower, upper, actual });
  if (!(nominal > 0 && nominal < 1)) {
    throw new InputError(
      'METRIC_BAD_PARAMETER',
      `intervalCoverage: nominal is ${nominal}, expected a share in (0, 1) such as 0.5, 0.8 or 0.9.`,
      { context: { nominal } },
    );
  }
  let inside = 0;
  let width = 0;
  for (let i = 0; i < n; i++) {
    const lo = lower[i];
    const hi = upper[i];
    if (lo > hi) {
      throw new InputError(
        'METRIC_CROSSING_QUANTILES',
        `intervalCoverage: lower[${i}] = ${lo} > upper[${i}] = ${hi}; pass the lower quantile first.`,
        { context: { index: i, lower: lo, upper: hi } },
      );
    }
    const y = actual[i];
    if (y >= lo && y <= hi) inside++;
    width += hi - lo;
  }
  const coverage = n === 0 ? Number.NaN : inside / n;
  return {
    nominal,
    coverage,
    coverageError: coverage - nominal,
    meanWidth: n === 0 ? Number.NaN : width / n,
    n,
  };
}
