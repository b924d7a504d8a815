import { InputError } from '@asof/schema';
import { assertFinite, checkLengths, type NumericArray } from './check-arrays.ts';

/**
 * FinVerse §3.2.1 eq. (1): r_o^(p,h) = y_{o+h} / y_{o+h−p} − 1 and r̂_o^(p,h) = ŷ_{o+h} / y_{o+h−p} − 1.
 * `end[o]` is y_{o+h} (or the forecast ŷ_{o+h}), `reference[o]` is the realised y_{o+h−p}.
 * A zero reference has no relative change; it is rejected rather than turned into ±Infinity.
 */
export function relativeChange(end: NumericArray, reference: NumericArray): Float64Array {
  const n = checkLengths('relativeChange', { end, reference });
  const out = new Float64Array(n);
  let guard = 0;
  for (let i = 0; i < n; i++) {
    const v = end[i] / reference[i] - 1;
    guard += v * 0;
    out[i] = v;
  }
  if (guard !== 0) {
    assertFinite('relativeChange', { end, reference });
    for (let i = 0; i < n; i++) {
      if (reference[i] === 0) {
        throw new InputError(
          'METRIC_ZERO_REFERENCE',
          `relativeChange: reference[${i}] is 0, so y/0 − 1 is undefined; ` +
            'relative-change metrics (HR, ΔHR, Δ²HR, MASE_rel, IC) need a non-zero y_{o+h−p}; drop the origin ' +
            'or score the series with difference-based metrics.',
          { context: { index: i, value: reference[i] } },
        );
      }
    }
    // Finite inputs, non-zero reference, yet a non-finite ratio: overflow (|end/reference| > 1.8e308).
    assertFinite('relativeChange', { result: out });
  }
  return out;
}
