import { assertFinite, checkLengths, type NumericArray, sign3 } from './check-arrays.ts';

/**
 * Tycheon "Metrics": share of origins where the median forecast and the outcome have the same sign.
 * Higher is better (about 0.5 is noise). sign is three-valued, as in FinVerse HR: a median of exactly 0
 * matches only an outcome of exactly 0. A forecast that is 0 at every origin (no change: the random walk's,
 * GARCH's, an ARIMA(0,1,0)'s) calls no direction at all, so its accuracy is n/a (NaN), as Tycheon has IC
 * and RankIC n/a for a constant forecast; compare such models with MASE/DM. NaN when empty.
 */
export function directionalAccuracy(forecast: NumericArray, actual: NumericArray): number {
  const n = checkLengths('directionalAccuracy', { forecast, actual });
  if (n === 0) return Number.NaN;
  let hits = 0;
  let guard = 0;
  let calls = 0;
  for (let i = 0; i < n; i++) {
    const x = forecast[i];
    const y = actual[i];
    guard += x * 0 + y * 0;
    hits += +(sign3(x) === sign3(y));
    calls += +(x !== 0);
  }
  if (guard !== 0) assertFinite('directionalAccuracy', { forecast, actual });
  return calls === 0 ? Number.NaN : hits / n;
}
