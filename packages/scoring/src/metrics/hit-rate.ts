import { assertFinite, checkLengths, type NumericArray, sign3 } from './check-arrays.ts';

/**
 * FinVerse §3.2.1 eq. (2): HR^(p,h) = (1/|O|) Σ_o 𝕀[sign(r̂_o) = sign(r_o)].
 * `predicted[o]` = r̂_o^(p,h), `realized[o]` = r_o^(p,h) (see `relativeChange`). Higher is better.
 * sign is three-valued (−1, 0, +1): a predicted change of exactly 0 hits only a realised change of exactly 0.
 * NaN when there are no origins.
 */
export function hitRate(predicted: NumericArray, realized: NumericArray): number {
  const n = checkLengths('hitRate', { predicted, realized });
  if (n === 0) return Number.NaN;
  let hits = 0;
  let guard = 0;
  for (let i = 0; i < n; i++) {
    const x = predicted[i];
    const y = realized[i];
    guard += x * 0 + y * 0;
    hits += +(sign3(x) === sign3(y));
  }
  if (guard !== 0) assertFinite('hitRate', { predicted, realized });
  return hits / n;
}
