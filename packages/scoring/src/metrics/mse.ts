import { assertFinite, checkLengths, type NumericArray } from './check-arrays.ts';

/** Mean squared error (1/L) Σ_t (Y_t − r_t)²: FinTSB §4.3.3 eq. (13). Lower is better. NaN when empty. */
export function mse(forecast: NumericArray, actual: NumericArray): number {
  const n = checkLengths('mse', { forecast, actual });
  if (n === 0) return Number.NaN;
  let s = 0;
  for (let i = 0; i < n; i++) {
    const e = forecast[i] - actual[i];
    s += e * e;
  }
  if (!Number.isFinite(s)) assertFinite('mse', { forecast, actual });
  return s / n;
}
