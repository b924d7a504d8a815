import { InputError } from '@asof/schema';
import { checkArrays, type NumericArray } from './check-arrays.ts';

/**
 * Tycheon "QLIKE: loss for the forecast variance against realised variance (sum of squared daily returns
 * over the horizon)". We use Patton's (2011) normalised form, mean over origins of
 *   RV/σ̂² − ln(RV/σ̂²) − 1,
 * which is ≥ 0, is 0 when σ̂² = RV, and is robust to noise in the RV proxy. (It differs from the other common
 * form ln σ̂² + RV/σ̂² by −ln RV − 1, which is model-independent, so rankings agree.) Lower is better.
 * Both variances must be > 0: RV = 0 (a horizon with no price change) has no finite QLIKE.
 */
export function qlike(forecastVariance: NumericArray, realizedVariance: NumericArray): number {
  const n = checkArrays('qlike', { forecastVariance, realizedVariance });
  if (n === 0) return Number.NaN;
  let s = 0;
  for (let i = 0; i < n; i++) {
    const h = forecastVariance[i];
    const rv = realizedVariance[i];
    if (!(h > 0) || !(rv > 0)) {
      throw new InputError(
        'METRIC_NONPOSITIVE_VARIANCE',
        `qlike: origin ${i} has forecast variance ${h} and realised variance ${rv}; both must be > 0 ` +
          '(drop origins whose realised variance is 0, or floor the forecast variance).',
        { context: { index: i, forecastVariance: h, realizedVariance: rv } },
      );
    }
    const ratio = rv / h;
    s += ratio - Math.log(ratio) - 1;
  }
  return s / n;
}

/** Realised variance over one horizon: Σ r_d² of the daily (log) returns inside it (Tycheon's proxy). */
export function realizedVariance(dailyReturns: NumericArray): number {
  checkArrays('realizedVariance', { dailyReturns });
  let s = 0;
  for (let i = 0; i < dailyReturns.length; i++) s += dailyReturns[i] * dailyReturns[i];
  return s;
}
