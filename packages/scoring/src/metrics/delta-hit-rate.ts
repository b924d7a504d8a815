import { assertFinite, checkLengths, type NumericArray, sign3 } from './check-arrays.ts';

export interface DeltaHitRateOptions {
  /**
   * r_{o−1}^(p,h) for each origin o, aligned with `realized`. When omitted, the arrays are taken to hold
   * consecutive origins (policy `all`), r_{o−1} is `realized[i − 1]`, and the first origin (which has no
   * predecessor in the arrays) is left out of O.
   */
  realizedPrev1?: NumericArray;
}

/**
 * FinVerse §3.2.1 eqs. (3), (5):
 *   Δr_o = r_o − r_{o−1},  Δr̂_o = r̂_o − r_{o−1}  (the forecast is differenced against the *realised* r_{o−1});
 *   ΔHR = (1/|O|) Σ_o 𝕀[sign(r̂_o) = sign(r_o)] · 𝕀[sign(Δr̂_o) = sign(Δr_o)].
 * Higher is better; ΔHR ≤ HR on the same origins. Three-valued sign as in `hitRate`. NaN when O is empty.
 */
export function deltaHitRate(
  predicted: NumericArray,
  realized: NumericArray,
  options: DeltaHitRateOptions = {},
): number {
  const n = checkLengths('deltaHitRate', { predicted, realized });
  const prev = options.realizedPrev1;
  if (prev !== undefined) checkLengths('deltaHitRate', { realized, realizedPrev1: prev });
  const start = prev === undefined ? 1 : 0;
  const count = n - start;
  if (count <= 0) return Number.NaN;
  const base = prev ?? realized;
  const shift = prev === undefined ? 1 : 0;
  let hits = 0;
  let guard = 0;
  for (let i = start; i < n; i++) {
    const r = realized[i];
    const rHat = predicted[i];
    const r1 = base[i - shift];
    guard += r * 0 + rHat * 0 + r1 * 0;
    hits += +(sign3(rHat) === sign3(r)) & +(sign3(rHat - r1) === sign3(r - r1));
  }
  if (guard !== 0)
    assertFinite('deltaHitRate', { predicted, realized, ...(prev ? { realizedPrev1: prev } : {}) });
  return hits / count;
}
