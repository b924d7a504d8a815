import { assertFinite, checkLengths, type NumericArray } from './check-arrays.ts';

/**
 * Mean absolute error (1/L) Σ_t |Y_t − r_t|: FinTSB §4.3.3 eq. (13) (whose Σ_{t=0}^{L} with 1/L is read as
 * the mean over the L points) and Tycheon "MAE … of the median forecast". Lower is better. NaN when empty.
 */
export function mae(forecast: NumericArray, actual: NumericArray): number {
  const n = checkLengths('mae', { forecast, actual });
  if (n === 0) return Number.NaN;
  let s = 0;
  for (let i = 0; i < n; i++) s += Math.abs(forecast[i] - actual[i]);
  if (!Number.isFinite(s)) assertFinite('mae', { forecast, actual });
  return s / n;
}
