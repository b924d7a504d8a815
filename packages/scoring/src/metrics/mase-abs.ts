import { assertFinite, checkLengths, type NumericArray } from './check-arrays.ts';

/**
 * FinVerse §3.2.1 eq. (8): MASE_abs^(p,h) = [(1/|O|) Σ_o |ŷ_{o+h} − y_{o+h}|] / [(1/|O|) Σ_o |y_{o+h} − y_{o+h−p}|]
 * (baseline: repeat y_{o+h−p}). `forecast[o]` = ŷ_{o+h}, `actual[o]` = y_{o+h}, `reference[o]` = y_{o+h−p}.
 * Lower is better. NaN when O is empty or the baseline makes no error on any origin.
 */
export function maseAbs(forecast: NumericArray, actual: NumericArray, reference: NumericArray): number {
  const n = checkLengths('maseAbs', { forecast, actual, reference });
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    const y = actual[i];
    num += Math.abs(forecast[i] - y);
    den += Math.abs(y - reference[i]);
  }
  if (!Number.isFinite(num + den)) assertFinite('maseAbs', { forecast, actual, reference });
  return n === 0 || den === 0 ? Number.NaN : num / den;
}
