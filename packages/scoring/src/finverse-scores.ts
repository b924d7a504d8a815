import type { ModelForecasts } from './align-forecasts.ts';
import type { EvaluationPanel } from './build-evaluation-panel.ts';
import { deltaHitRate } from './metrics/delta-hit-rate.ts';
import { delta2HitRate } from './metrics/delta2-hit-rate.ts';
import { hitRate } from './metrics/hit-rate.ts';
import { meanInformationCoefficient } from './metrics/information-coefficient.ts';
import { maseAbs } from './metrics/mase-abs.ts';
import { maseOri } from './metrics/mase-ori.ts';
import { maseRel } from './metrics/mase-rel.ts';
import { portfolioMetrics } from './metrics/portfolio-metrics.ts';
import { valueAt } from './value-at.ts';

/** FinVerse metric families scored per series (point-wise aspect). */
export const POINTWISE_METRICS = new Set(['HR', 'DHR', 'D2HR', 'MASE_rel', 'MASE_abs', 'MASE_ori']);
export const PORTFOLIO_METRICS = new Set(['return', 'vol', 'Sharpe', 'MDD']);

export const FINVERSE_DIRECTIONS: Record<string, 'higher' | 'lower'> = {
  HR: 'higher',
  DHR: 'higher',
  D2HR: 'higher',
  MASE_rel: 'lower',
  MASE_abs: 'lower',
  MASE_ori: 'lower',
  IC: 'higher',
  return: 'higher',
  vol: 'lower',
  Sharpe: 'higher',
  MDD: 'higher',
};

/** A_h of FinVerse eq. (14): holding periods per year by horizon. */
export const PERIODS_PER_YEAR: Record<string, number> = { '1w': 52, '1m': 12, '1q': 4, '1h': 2, '1y': 1 };

/** The origins of one series usable at (p, h), with r_o and y_{o+h−p}, in time order. */
export interface PointwiseFrame {
  origins: Int32Array;
  reference: Float64Array;
  actual: Float64Array;
  realized: Float64Array;
}

/**
 * Origins of series s (time order) where y_{o+h} and the reference y_{o+h−p} are known and the reference
 * is non-zero (eq. 1 divides by it). Consecutive entries are the FinVerse o and o−1 of ΔHR/Δ²HR: with
 * policy `all` they are consecutive steps; with sparser origins they are consecutive origins.
 */
export function pointwiseFrame(
  panel: EvaluationPanel,
  s: number,
  pSteps: number,
  hSteps: number,
): PointwiseFrame {
  const start = panel.seriesOriginStart[s];
  const end = panel.seriesOriginStart[s + 1];
  const origins: number[] = [];
  const reference: number[] = [];
  const actual: number[] = [];
  for (let o = start; o < end; o++) {
    if (panel.horizon[o] < hSteps) continue;
    const y = panel.actual[panel.targetOffset[o] + hSteps - 1];
    const ref = valueAt(panel, o, hSteps - pSteps);
    if (!Number.isFinite(y) || !Number.isFinite(ref) || ref === 0) continue;
    origins.push(o);
    reference.push(ref);
    actual.push(y);
  }
  const realized = new Float64Array(actual.length);
  for (let i = 0; i < actual.length; i++) realized[i] = actual[i] / reference[i] - 1;
  return {
    origins: Int32Array.from(origins),
    reference: Float64Array.from(reference),
    actual: Float64Array.from(actual),
    realized,
  };
}

/** One point-wise FinVerse metric of one model on one series at (p, h) (MASE_ori: p/h ignored). */
export function pointwiseMetric(
  panel: EvaluationPanel,
  model: ModelForecasts,
  metric: string,
  frame: PointwiseFrame,
  hSteps: number,
  scratch: Float64Array,
): number {
  const n = frame.origins.length;
  const forecast = scratch.subarray(0, n);
  for (let i = 0; i < n; i++) forecast[i] = model.point[panel.targetOffset[frame.origins[i]] + hSteps - 1];
  if (metric === 'MASE_abs') return maseAbs(forecast, frame.actual, frame.reference);
  for (let i = 0; i < n; i++) forecast[i] = forecast[i] / frame.reference[i] - 1;
  switch (metric) {
    case 'HR':
      return hitRate(forecast, frame.realized);
    case 'DHR':
      return deltaHitRate(forecast, frame.realized);
    case 'D2HR':
      return delta2HitRate(forecast, frame.realized);
    case 'MASE_rel':
      return maseRel(forecast, frame.realized);
    default:
      throw new TypeError(`pointwiseMetric: ${metric} is not a point-wise FinVerse metric`);
  }
}

/** Origins of series s whose first H targets are all known, H = the series' shortest horizon. */
export function maseOriFrame(
  panel: EvaluationPanel,
  s: number,
): { origins: Int32Array; H: number; actual: Float64Array } {
  const start = panel.seriesOriginStart[s];
  const end = panel.seriesOriginStart[s + 1];
  let H = Number.POSITIVE_INFINITY;
  for (let o = start; o < end; o++) H = Math.min(H, panel.horizon[o]);
  const origins: number[] = [];
  for (let o = start; o < end; o++) {
    let ok = true;
    for (let k = 0; k < H && ok; k++) ok = Number.isFinite(panel.actual[panel.targetOffset[o] + k]);
    if (ok) origins.push(o);
  }
  const actual = new Float64Array(origins.length * (Number.isFinite(H) ? H : 0));
  for (let i = 0; i < origins.length; i++) {
    const o = origins[i];
    actual.set(panel.actual.subarray(panel.targetOffset[o], panel.targetOffset[o] + H), i * H);
  }
  return { origins: Int32Array.from(origins), H: Number.isFinite(H) ? H : 0, actual };
}

export function maseOriMetric(
  panel: EvaluationPanel,
  model: ModelForecasts,
  frame: { origins: Int32Array; H: number; actual: Float64Array },
): number {
  const { origins, H } = frame;
  if (origins.length === 0 || H === 0) return Number.NaN;
  const forecast = new Float64Array(origins.length * H);
  const originValue = new Float64Array(origins.length);
  for (let i = 0; i < origins.length; i++) {
    const o = origins[i];
    forecast.set(model.point.subarray(panel.targetOffset[o], panel.targetOffset[o] + H), i * H);
    originValue[i] = panel.lastValue[o];
  }
  return maseOri(forecast, frame.actual, originValue, H);
}

/**
 * Cross-sections of one unit at (p, h): for every distinct origin instant of the unit's series (time
 * order), r_{i,o} per series i (NaN where the series has no usable origin then).
 */
export interface CrossSectionFrame {
  series: number[];
  /** per time: per series: origin index or −1 */
  originAt: Int32Array[];
  reference: Float64Array[];
  realized: Float64Array[];
}

export function crossSectionFrame(
  panel: EvaluationPanel,
  series: readonly number[],
  pSteps: number,
  hSteps: number,
): CrossSectionFrame {
  const frames = series.map((s) => pointwiseFrame(panel, s, pSteps, hSteps));
  const times = new Set<number>();
  for (const f of frames) for (const o of f.origins) times.add(panel.originTime[o]);
  const sorted = [...times].sort((a, b) => a - b);
  const slot = new Map(sorted.map((t, i) => [t, i]));
  const m = series.length;
  const originAt = sorted.map(() => new Int32Array(m).fill(-1));
  const reference = sorted.map(() => new Float64Array(m).fill(Number.NaN));
  const realized = sorted.map(() => new Float64Array(m).fill(Number.NaN));
  frames.forEach((f, j) => {
    for (let i = 0; i < f.origins.length; i++) {
      const t = slot.get(panel.originTime[f.origins[i]])!;
      originAt[t][j] = f.origins[i];
      reference[t][j] = f.reference[i];
      realized[t][j] = f.realized[i];
    }
  });
  return { series: [...series], originAt, reference, realized };
}

function predictedCross(
  panel: EvaluationPanel,
  model: ModelForecasts,
  frame: CrossSectionFrame,
  hSteps: number,
) {
  return frame.originAt.map((row, t) => {
    const out = new Float64Array(row.length).fill(Number.NaN);
    for (let j = 0; j < row.length; j++) {
      const o = row[j];
      if (o >= 0) out[j] = model.point[panel.targetOffset[o] + hSteps - 1] / frame.reference[t][j] - 1;
    }
    return out;
  });
}

/** FinVerse eq. (10) IC of one unit: mean over origins of the cross-sectional Spearman correlation. */
export function unitInformationCoefficient(
  panel: EvaluationPanel,
  model: ModelForecasts,
  frame: CrossSectionFrame,
  hSteps: number,
): number {
  return meanInformationCoefficient(predictedCross(panel, model, frame, hSteps), frame.realized).value;
}

/**
 * FinVerse §3.2.3 portfolio metrics of one unit. The cross-section calendar is the unit's distinct origins;
 * `holdingOrigins` is h in origins (h_steps / origin stride, at least 1).
 */
export function unitPortfolio(
  panel: EvaluationPanel,
  model: ModelForecasts,
  frame: CrossSectionFrame,
  hSteps: number,
  holdingOrigins: number,
  periodsPerYear: number,
): Record<'return' | 'vol' | 'Sharpe' | 'MDD', number> {
  const r = portfolioMetrics(predictedCross(panel, model, frame, hSteps), frame.realized, {
    holdingSteps: holdingOrigins,
    periodsPerYear,
  });
  return { return: r.annualReturn, vol: r.annualVolatility, Sharpe: r.sharpe, MDD: r.maxDrawdown };
}
