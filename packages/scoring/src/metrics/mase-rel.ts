import { assertFinite, checkLengths, type NumericArray } from './check-arrays.ts';

/**
 * FinVerse §3.2.1 eq. (7): MASE_rel^(p,h) = [(1/|O|) Σ_o |r̂_o − r_o|] / [(1/|O|) Σ_o |r_o|]
 * (baseline: zero relative change). `predicted` = r̂_o^(p,h), `realized` = r_o^(p,h). Lower is better;
 * 1 means as good as predicting no change. NaN when O is empty or every r_o is 0 (undefined scale).
 */
export function maseRel(predicted: NumericArray, realized: NumericArray): number {
  const n = checkLengths('maseRel', { predicted, realized });
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    const r = realized[i];
    num += Math.abs(predicted[i] - r);
    den += Math.abs(r);
  }
  if (!Number.isFinite(num + den)) assertFinite('maseRel', { predicted, realized });
  // The 1/|O| factors cancel.
  return n === 0 || den === 0 ? Number.NaN : num / den;
}
