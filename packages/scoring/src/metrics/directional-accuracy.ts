import { assertFinite, checkLengths, type NumericArray, sign3 } from './check-arrays.ts';

/**
 * Tycheon "Metrics": share of origins where the median forecast and the outcome have the same sign.
 * Higher is better (about 0.5 is noise). sign is three-valued, as in FinVerse HR: a median of exactly 0
 * (the random walk's) matches only an outcome of exactly 0, so the random walk scores ≈ 0 here; compare
 * models to it with MASE/DM, not with this metric. NaN when empty.
 */
export function directionalAccuracy(forecast: NumericArray, actual: NumericArray): number {
  const n = checkLengths('directionalAccuracy', { forecast, actual });
  if (n === 0) return Number.NaN;
  let hits = 0;
  let guard = 0;
  for (let i = 0; i < n; i++) {
    const x = forecast[i];
    const y = actual[i];
    guard += x * 0 + y * 0;
    hits += +(sign3(x) === sign3(y));
  }
  if (guard !== 0) assertFinite('directionalAccuracy', { forecast, actual });
  return hits / n;
}
