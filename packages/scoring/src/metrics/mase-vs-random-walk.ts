import { assertFinite, checkLengths, type NumericArray } from './check-arrays.ts';

/**
 * Tycheon "Metrics": MASE = MAE of the model / MAE of the no-change forecast on the same origins, in
 * log-return space, where the random walk's (no-change) forecast of log(P[t+h]/P[t]) is 0. Pass
 * `randomWalk` to use the random walk's own recorded median forecast instead of 0.
 * Lower is better; below 1 beats the random walk. NaN when empty or the random walk makes no error.
 */
export function maseVsRandomWalk(
  forecast: NumericArray,
  actual: NumericArray,
  randomWalk?: NumericArray,
): number {
  const n = checkLengths('maseVsRandomWalk', { forecast, actual });
  if (randomWalk !== undefined) checkLengths('maseVsRandomWalk', { actual, randomWalk });
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    const y = actual[i];
    num += Math.abs(forecast[i] - y);
    den += Math.abs((randomWalk === undefined ? 0 : randomWalk[i]) - y);
  }
  if (!Number.isFinite(num + den)) {
    assertFinite('maseVsRandomWalk', { forecast, actual, ...(randomWalk ? { randomWalk } : {}) });
  }
  return n === 0 || den === 0 ? Number.NaN : num / den;
}
