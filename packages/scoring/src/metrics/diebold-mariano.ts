import { InputError } from '@asof/schema';
import { studentTCdf } from '@asof/stats';
import { checkArrays, checkInteger, type NumericArray } from './check-arrays.ts';
import { negligibleSpread } from './float-tolerance.ts';

export interface DieboldMarianoResult {
  /**
   * HLN-corrected statistic DM* (negative when the model's loss is lower). NaN if the differential's
   * variance is zero or at rounding level (`belowRounding`).
   */
  statistic: number;
  /** One-sided p-value for "the model's expected loss is lower than the baseline's": P(T_{n−1} ≤ DM*). */
  pModelBetter: number;
  /** One-sided p-value for "the model's expected loss is higher": P(T_{n−1} ≥ DM*). */
  pModelWorse: number;
  /** Mean loss differential d̄ = mean(lossModel − lossBaseline). */
  meanDifferential: number;
  n: number;
  /** Horizon actually used for the long-run variance (1 after a fallback, see `fellBackToH1`). */
  horizon: number;
  /** True when the h−1 autocovariance sum made the variance ≤ 0 and h = 1 was used, as R forecast::dm.test does. */
  fellBackToH1: boolean;
  /**
   * True when the differential's spread is rounding noise: √γ_0 ≤ RELATIVE_TOLERANCE · max |loss|, e.g. a
   * model equal to the baseline up to float rounding. No test then (statistic and p-values NaN).
   */
  belowRounding: boolean;
}

/**
 * Diebold–Mariano test of equal expected loss with the Harvey–Leybourne–Newbold (1997) small-sample
 * correction (Tycheon methodology "Diebold-Mariano"; same computation as R `forecast::dm.test`, which the
 * reference test checks against):
 *   d_t = L_model,t − L_baseline,t,  γ_k = (1/n) Σ_{t>k} (d_t − d̄)(d_{t−k} − d̄),
 *   DM = d̄ / √((γ_0 + 2 Σ_{k=1}^{h−1} γ_k) / n),
 *   DM* = DM · √((n + 1 − 2h + h(h−1)/n) / n),  compared with Student t, n − 1 df.
 * Pass per-origin losses: squared errors for the squared-error test, per-origin CRPS for the CRPS test.
 * `horizon` is the forecast horizon in origin steps (h − 1 autocovariances); with non-overlapping origins
 * (Tycheon's rule) use 1. A constant differential has zero variance: statistic and p-values are NaN. So
 * is one whose spread is within rounding of the losses' size (`belowRounding`): the test would otherwise
 * divide rounding noise by itself (a model identical to the random walk got DM* = 1.03).
 */
export function dieboldMariano(
  lossModel: NumericArray,
  lossBaseline: NumericArray,
  options: { horizon?: number } = {},
): DieboldMarianoResult {
  const h0 = options.horizon ?? 1;
  checkInteger('dieboldMariano', 'horizon', h0, 1);
  const n = checkArrays('dieboldMariano', { lossModel, lossBaseline });
  if (n < 2) {
    throw new InputError(
      'METRIC_TOO_FEW_ORIGINS',
      `dieboldMariano: ${n} paired losses, expected at least 2 (the test uses n − 1 degrees of freedom).`,
      { context: { n } },
    );
  }
  let dBar = 0;
  let scale = 0;
  for (let i = 0; i < n; i++) {
    dBar += lossModel[i] - lossBaseline[i];
    scale = Math.max(scale, Math.abs(lossModel[i]), Math.abs(lossBaseline[i]));
  }
  dBar /= n;
  const lrv1 = longRunVariance(lossModel, lossBaseline, dBar, 1);
  const belowRounding = negligibleSpread(lrv1 * n * n, n, scale);
  let h = h0;
  let variance = h === 1 ? lrv1 : longRunVariance(lossModel, lossBaseline, dBar, h);
  let fellBackToH1 = false;
  if (!(variance > 0) && h > 1) {
    h = 1;
    fellBackToH1 = true;
    variance = lrv1;
  }
  const hln = (n + 1 - 2 * h + (h * (h - 1)) / n) / n;
  if (!(hln > 0)) {
    throw new InputError(
      'METRIC_TOO_FEW_ORIGINS',
      `dieboldMariano: n=${n} origins is too few for horizon ${h} (HLN factor (n+1−2h+h(h−1)/n)/n = ${hln} ≤ 0); ` +
        'use more origins or non-overlapping origins with horizon 1.',
      { context: { n, horizon: h } },
    );
  }
  const statistic =
    variance > 0 && !belowRounding ? (dBar / Math.sqrt(variance)) * Math.sqrt(hln) : Number.NaN;
  return {
    statistic,
    pModelBetter: studentTCdf(statistic, n - 1),
    pModelWorse: studentTCdf(-statistic, n - 1),
    meanDifferential: dBar,
    n,
    horizon: h,
    fellBackToH1,
    belowRounding,
  };
}

/** (γ_0 + 2 Σ_{k=1}^{h−1} γ_k) / n with autocovariances divided by n (R `acf(type = "covariance")`). */
// d_t is recomputed from the two loss arrays instead of being stored: at pooled scale (10^7 origins) a
// fresh n-element buffer costs more in first-touch page faults than the subtractions it saves.
function longRunVariance(a: NumericArray, b: NumericArray, dBar: number, h: number): number {
  const n = a.length;
  let sum = 0;
  for (let k = 0; k < Math.min(h, n); k++) {
    let g = 0;
    for (let t = k; t < n; t++) g += (a[t] - b[t] - dBar) * (a[t - k] - b[t - k] - dBar);
    g /= n;
    sum += k === 0 ? g : 2 * g;
  }
  return sum / n;
}

/** Squared errors (forecast − actual)², the loss for the squared-error DM test. */
export function squaredErrors(forecast: NumericArray, actual: NumericArray): Float64Array {
  const n = checkArrays('squaredErrors', { forecast, actual });
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const e = forecast[i] - actual[i];
    out[i] = e * e;
  }
  return out;
}
