import {
  assertFinite,
  checkLengths,
  type NumericArray,
  requireBothOrNeither,
  sign3,
} from './check-arrays.ts';

export interface Delta2HitRateOptions {
  /** r_{o−1}^(p,h) per origin; with `realizedPrev2`, replaces the consecutive-origins assumption. */
  realizedPrev1?: NumericArray;
  /** r_{o−2}^(p,h) per origin. */
  realizedPrev2?: NumericArray;
}

/**
 * FinVerse §3.2.1 eqs. (4), (6):
 *   Δ²r_o = r_o − 2r_{o−1} + r_{o−2},  Δ²r̂_o = r̂_o − 2r_{o−1} + r_{o−2};
 *   Δ²HR = (1/|O|) Σ_o 𝕀[sign r̂_o = sign r_o] · 𝕀[sign Δr̂_o = sign Δr_o] · 𝕀[sign Δ²r̂_o = sign Δ²r_o].
 * Without explicit predecessors the arrays are consecutive origins and the first two are left out of O.
 * Higher is better; Δ²HR ≤ ΔHR ≤ HR on the same origins. NaN when O is empty.
 */
export function delta2HitRate(
  predicted: NumericArray,
  realized: NumericArray,
  options: Delta2HitRateOptions = {},
): number {
  const n = checkLengths('delta2HitRate', { predicted, realized });
  const { realizedPrev1: p1, realizedPrev2: p2 } = options;
  requireBothOrNeither('delta2HitRate', ['realizedPrev1', 'realizedPrev2'], p1, p2);
  if (p1 !== undefined && p2 !== undefined) {
    checkLengths('delta2HitRate', { realized, realizedPrev1: p1, realizedPrev2: p2 });
  }
  const start = p1 === undefined ? 2 : 0;
  const count = n - start;
  if (count <= 0) return Number.NaN;
  const base1 = p1 ?? realized;
  const base2 = p2 ?? realized;
  const shift = p1 === undefined ? 1 : 0;
  let hits = 0;
  let guard = 0;
  for (let i = start; i < n; i++) {
    const r = realized[i];
    const rHat = predicted[i];
    const r1 = base1[i - shift];
    const r2 = base2[i - 2 * shift];
    guard += r * 0 + rHat * 0 + r1 * 0 + r2 * 0;
    hits +=
      +(sign3(rHat) === sign3(r)) &
      +(sign3(rHat - r1) === sign3(r - r1)) &
      +(sign3(rHat - 2 * r1 + r2) === sign3(r - 2 * r1 + r2));
  }
  if (guard !== 0) {
    assertFinite('delta2HitRate', {
      predicted,
      realized,
      ...(p1 && p2 ? { realizedPrev1: p1, realizedPrev2: p2 } : {}),
    });
  }
  return hits / count;
}
