import type { NumericArray } from './check-arrays.ts';

/**
 * Sample standard deviation (divisor n − 1, as pandas `.std()` which qlib/FinTSB use). None of the seeds
 * states the divisor; we use n − 1 everywhere (FinVerse Std, FinTSB std/Var) so results are consistent.
 * NaN when fewer than 2 values.
 */
export function sampleStd(values: NumericArray): number {
  const n = values.length;
  if (n < 2) return Number.NaN;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += values[i];
  mean /= n;
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const d = values[i] - mean;
    ss += d * d;
  }
  return Math.sqrt(ss / (n - 1));
}

/** Arithmetic mean; NaN for an empty array. */
export function mean(values: NumericArray): number {
  const n = values.length;
  if (n === 0) return Number.NaN;
  let s = 0;
  for (let i = 0; i < n; i++) s += values[i];
  return s / n;
}
