import { InputError } from '@asof/schema';
import { assertFinite, checkInteger, checkLengths, type NumericArray } from './check-arrays.ts';

/**
 * FinVerse §3.2.1 eq. (9):
 *   MASE_ori = [1/(|O|H) Σ_o Σ_{h=1..H} |ŷ_{o+h} − y_{o+h}|] / [1/(|O|H) Σ_o Σ_{h=1..H} |y_o − y_{o+h}|]
 * (baseline: persistence of the origin value over the whole prediction length H).
 * `forecast` and `actual` are origin-major flattened |O|×H matrices: entry o·H + (h−1) is step h of origin o.
 * `originValue[o]` = y_o. Lower is better. NaN when O is empty or the baseline makes no error.
 */
export function maseOri(
  forecast: NumericArray,
  actual: NumericArray,
  originValue: NumericArray,
  predictionLength: number,
): number {
  checkInteger('maseOri', 'predictionLength', predictionLength, 1);
  const n = checkLengths('maseOri', { forecast, actual });
  const origins = originValue.length;
  if (origins * predictionLength !== n) {
    throw new InputError(
      'METRIC_LENGTH_MISMATCH',
      `maseOri: forecast/actual hold ${n} values but originValue has ${origins} origins × ` +
        `predictionLength ${predictionLength} = ${origins * predictionLength}; flatten origin-major, H steps per origin.`,
      { context: { actual: n, expected: origins * predictionLength } },
    );
  }
  let num = 0;
  let den = 0;
  for (let o = 0; o < origins; o++) {
    const y0 = originValue[o];
    const base = o * predictionLength;
    for (let h = 0; h < predictionLength; h++) {
      const y = actual[base + h];
      num += Math.abs(forecast[base + h] - y);
      den += Math.abs(y0 - y);
    }
  }
  if (!Number.isFinite(num + den)) assertFinite('maseOri', { forecast, actual, originValue });
  return n === 0 || den === 0 ? Number.NaN : num / den;
}
