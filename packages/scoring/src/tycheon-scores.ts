import { normalQuantile } from '@asof/stats';
import type { ModelForecasts } from './align-forecasts.ts';
import type { EvaluationPanel } from './build-evaluation-panel.ts';
import { crpsGaussian } from './metrics/crps-gaussian.ts';
import { crpsQuantiles } from './metrics/crps-quantiles.ts';
import { crpsSamples } from './metrics/crps-samples.ts';
import { noChangeReturn } from './metrics/float-tolerance.ts';
import { positiveSeries } from './positive-series.ts';
import { randomWalkSigma, randomWalkSigmaReturns } from './random-walk-sigma.ts';
import { RANDOM_WALK } from './score-types.ts';

/**
 * Tycheon metrics live in log-return space at the horizon end (Tycheon methodology, "Metrics": "all
 * computed in log-return space on the horizon-end return"): r_o = ln(y_{o+H}/y_o) and r̂_o = ln(ŷ_{o+H}/y_o).
 * A series with a value ≤ 0 anywhere the scorer looks (positiveSeries) has no log return; it is scored in
 * scaled change r_o = (y_{o+H} − y_o)/|y_o| instead (|y_o| keeps the direction for negative ones, e.g.
 * spreads). Both are unit-free, so a unit's origins can be pooled in one Diebold–Mariano test. Origins with
 * y_o = 0 or an unknown y_{o+H} are left out. FinTSB's signal metrics and backtests use the simple return
 * (`change`): portfolio returns average and compound simple returns, not log returns.
 */
export interface TycheonFrame {
  /** usable origins, series-major, time order */
  origins: Int32Array;
  /** frame rows of series s: seriesStart[s] … seriesStart[s+1] − 1 */
  seriesStart: Int32Array;
  /** 1 where the row's series is in log-return space, 0 in scaled-change space. */
  logSpace: Uint8Array;
  scale: Float64Array;
  /** The horizon-end return in Tycheon space. */
  realized: Float64Array;
  /** The horizon-end simple return (y_{o+H} − y_o)/|y_o| (FinTSB). */
  change: Float64Array;
  /**
   * The random walk's N(0, σ̂²h) at the horizon end: σ̂·√h in Tycheon space (randomWalkSigma states the
   * window). NaN when the window has too few one-step returns or no variation: the random walk is then a
   * point mass at 0.
   */
  rwSigma: Float64Array;
  /** The one-step returns σ̂ was estimated from at each row (the window's count, per origin). */
  rwSigmaReturns: Int32Array;
  /** Σ_{k=1..H} (one-step return)², Tycheon's realised-variance proxy; NaN when a step is unknown. */
  realizedVariance: Float64Array;
}

/** A scored series' rows in a frame: its unit and the half-open row range [a, b). */
export interface ScoredRange {
  unit: string;
  a: number;
  b: number;
}

/** Every series scored in this run (a unit given) with at least one usable origin in the frame. */
export function scoredRanges(
  seriesUnit: readonly (string | undefined)[],
  frame: TycheonFrame,
): ScoredRange[] {
  const out: ScoredRange[] = [];
  for (let s = 0; s < seriesUnit.length; s++) {
    const unit = seriesUnit[s];
    const a = frame.seriesStart[s];
    const b = frame.seriesStart[s + 1];
    if (unit !== undefined && a < b) out.push({ unit, a, b });
  }
  return out;
}

/** y as a return from y0 in frame row i's space: ln(y/y0), or (y − y0)/|y_o| (y0 is y_o or, for one step of a path, the previous value). */
export function tycheonReturn(frame: TycheonFrame, i: number, y0: number, y: number): number {
  return frame.logSpace[i] ? Math.log(y / y0) : (y - y0) / frame.scale[i];
}

/**
 * The frame of a panel. `frequencyOf(s)` gives series s's frequency, which sets the random walk's
 * volatility window (RANDOM_WALK_SIGMA_RETURNS); without it (or for an unknown frequency) σ̂ takes every
 * one-step return the panel holds for the origin.
 */
export function tycheonFrame(
  panel: EvaluationPanel,
  frequencyOf: (series: number) => string | undefined = () => undefined,
): TycheonFrame {
  const nSeries = panel.seriesIds.length;
  const positive = positiveSeries(panel);
  const seriesStart = new Int32Array(nSeries + 1);
  const origins: number[] = [];
  for (let s = 0; s < nSeries; s++) {
    for (let o = panel.seriesOriginStart[s]; o < panel.seriesOriginStart[s + 1]; o++) {
      const y0 = panel.lastValue[o];
      const yH = panel.actual[panel.targetOffset[o] + panel.horizon[o] - 1];
      if (y0 !== 0 && Number.isFinite(yH)) origins.push(o);
    }
    seriesStart[s + 1] = origins.length;
  }
  const n = origins.length;
  const frame: TycheonFrame = {
    origins: Int32Array.from(origins),
    seriesStart,
    logSpace: new Uint8Array(n),
    scale: new Float64Array(n),
    realized: new Float64Array(n),
    change: new Float64Array(n),
    rwSigma: new Float64Array(n),
    rwSigmaReturns: new Int32Array(n),
    realizedVariance: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    const o = origins[i];
    const y0 = panel.lastValue[o];
    const yH = panel.actual[panel.targetOffset[o] + panel.horizon[o] - 1];
    frame.logSpace[i] = positive[panel.originSeries[o]];
    frame.scale[i] = Math.abs(y0);
    frame.realized[i] = tycheonReturn(frame, i, y0, yH);
    frame.change[i] = (yH - y0) / frame.scale[i];
    const rw = randomWalkSigma(
      {
        tail: panel.historyTail[o],
        back: panel.historyTailBack[o],
        before: panel.historyBefore[o],
        beforeBack: panel.historyBeforeBack[o],
      },
      panel.horizon[o],
      (a, b) => tycheonReturn(frame, i, a, b),
      randomWalkSigmaReturns(frequencyOf(panel.originSeries[o])),
    );
    frame.rwSigma[i] = rw.sigma;
    frame.rwSigmaReturns[i] = rw.returns;
    let rv = 0;
    let prev = y0;
    for (let k = 0; k < panel.horizon[o]; k++) {
      const y = panel.actual[panel.targetOffset[o] + k];
      const d = tycheonReturn(frame, i, prev, y);
      rv += d * d;
      prev = y;
    }
    frame.realizedVariance[i] = rv;
  }
  return frame;
}

/** How a model's CRPS is computed: the random walk's own Gaussian is 'gaussian' (closed form, exact). */
export type CrpsKind = 'point' | 'samples' | 'quantiles' | 'gaussian';

/** The scorer's own random walk (a submitted model of that name is checked against it and dropped). */
export function isRandomWalk(model: ModelForecasts): boolean {
  return model.baseline && model.model === RANDOM_WALK;
}

export function crpsKindOf(model: ModelForecasts): CrpsKind {
  if (isRandomWalk(model)) return 'gaussian';
  return model.samples ? 'samples' : model.quantiles ? 'quantiles' : 'point';
}

/** CRPS of the random walk N(0, σ̂²h) at frame row i: closed form, or |r| (a point mass) where σ̂ is unknown. */
function randomWalkCrpsAt(frame: TycheonFrame, i: number): number {
  const sigma = frame.rwSigma[i];
  const r = frame.realized[i];
  return Number.isNaN(sigma) ? Math.abs(r) : crpsGaussian(0, sigma, r);
}

/** A model's horizon-end forecasts and per-origin losses in Tycheon space, aligned with the frame. */
export interface TycheonLosses {
  /** The forecast return; 0 where it is no change (within NO_CHANGE_TOLERANCE of 0, noChangeReturn). */
  forecast: Float64Array;
  /** The forecast as a simple return (ŷ_{o+H} − y_o)/|y_o| (FinTSB); 0 where it is no change. */
  change: Float64Array;
  squaredError: Float64Array;
  crps: Float64Array;
  kind: CrpsKind;
  /** True for the quantile-grid CRPS (flagged *). */
  approximate: boolean;
}

/**
 * CRPS by the model's kind: point forecasts are a point mass (CRPS = |r̂ − r|), samples use the fair
 * estimator (exact), quantiles the trapezoid pinball integral (approximate), and the random walk its own
 * Gaussian N(0, σ̂²h) in closed form (exact; randomWalkSigma).
 */
export function tycheonLosses(
  panel: EvaluationPanel,
  model: ModelForecasts,
  frame: TycheonFrame,
): TycheonLosses {
  const n = frame.origins.length;
  const forecast = new Float64Array(n);
  const change = new Float64Array(n);
  const squaredError = new Float64Array(n);
  const crps = new Float64Array(n);
  const kind = crpsKindOf(model);
  const M = model.sampleCount;
  const K = model.quantileLevels?.length ?? 0;
  const buf = new Float64Array(Math.max(M, K));
  for (let i = 0; i < n; i++) {
    const o = frame.origins[i];
    const idx = panel.targetOffset[o] + panel.horizon[o] - 1;
    const y0 = panel.lastValue[o];
    const r = frame.realized[i];
    // Rounding noise around y_o is no change (noChangeReturn): it must not count as a call of direction,
    // a position or a correlation.
    const f = noChangeReturn(tycheonReturn(frame, i, y0, model.point[idx]));
    forecast[i] = f;
    change[i] = noChangeReturn((model.point[idx] - y0) / frame.scale[i]);
    squaredError[i] = (f - r) * (f - r);
    if (kind === 'samples') {
      for (let k = 0; k < M; k++) buf[k] = tycheonReturn(frame, i, y0, model.samples![idx * M + k]);
      crps[i] = crpsSamples(buf.subarray(0, M), r);
    } else if (kind === 'quantiles') {
      for (let k = 0; k < K; k++) buf[k] = tycheonReturn(frame, i, y0, model.quantiles![idx * K + k]);
      crps[i] = crpsQuantiles(model.quantileLevels!, buf.subarray(0, K), r).value;
    } else if (kind === 'gaussian') crps[i] = randomWalkCrpsAt(frame, i);
    else crps[i] = Math.abs(f - r);
  }
  return { forecast, change, squaredError, crps, kind, approximate: kind === 'quantiles' };
}

/**
 * The random walk's CRPS to pair with a model's in a DM test. The random walk is always its Gaussian
 * N(0, σ̂²h) (a model produces a distribution; a point forecast is a point mass, whose CRPS is its absolute
 * error), and exact values are never paired with approximate ones: point, samples → the Gaussian in closed
 * form (exact; |r| where σ̂ is unknown); quantiles → the trapezoid integral over the model's own grid of
 * the Gaussian's quantiles (approximate, as the model's).
 */
export function randomWalkCrps(
  frame: TycheonFrame,
  kind: CrpsKind,
  levels: readonly number[] | null,
): Float64Array {
  const n = frame.origins.length;
  const out = new Float64Array(n);
  const z = levels ? levels.map(normalQuantile) : [];
  const q = new Float64Array(z.length);
  for (let i = 0; i < n; i++) {
    const r = frame.realized[i];
    const sigma = frame.rwSigma[i];
    if (kind !== 'quantiles') out[i] = randomWalkCrpsAt(frame, i);
    else {
      for (let k = 0; k < z.length; k++) q[k] = Number.isNaN(sigma) ? 0 : sigma * z[k];
      out[i] = crpsQuantiles(levels!, q, r).value;
    }
  }
  return out;
}

/**
 * Central interval [lower, upper] of nominal coverage c from a model's quantiles or samples, or the random
 * walk's Gaussian ±z·σ̂√h ([0, 0] where σ̂ is unknown); null for a point forecast.
 */
export function intervalBounds(
  panel: EvaluationPanel,
  model: ModelForecasts,
  frame: TycheonFrame,
  nominal: number,
): { lower: Float64Array; upper: Float64Array } | null {
  const lo = (1 - nominal) / 2;
  const hi = (1 + nominal) / 2;
  const n = frame.origins.length;
  if (isRandomWalk(model)) {
    const z = normalQuantile(hi);
    const upper = frame.rwSigma.map((s) => (Number.isNaN(s) ? 0 : z * s));
    return { lower: upper.map((u) => -u), upper };
  }
  const K = model.quantileLevels?.length ?? 0;
  const M = model.sampleCount;
  let kLo = -1;
  let kHi = -1;
  if (K) {
    kLo = model.quantileLevels!.findIndex((l) => Math.abs(l - lo) < 1e-9);
    kHi = model.quantileLevels!.findIndex((l) => Math.abs(l - hi) < 1e-9);
    if (kLo < 0 || kHi < 0) return null;
  } else if (M < 2) return null;
  const lower = new Float64Array(n);
  const upper = new Float64Array(n);
  const buf = new Float64Array(M);
  for (let i = 0; i < n; i++) {
    const o = frame.origins[i];
    const idx = panel.targetOffset[o] + panel.horizon[o] - 1;
    const y0 = panel.lastValue[o];
    if (K) {
      lower[i] = tycheonReturn(frame, i, y0, model.quantiles![idx * K + kLo]);
      upper[i] = tycheonReturn(frame, i, y0, model.quantiles![idx * K + kHi]);
    } else {
      for (let k = 0; k < M; k++) buf[k] = tycheonReturn(frame, i, y0, model.samples![idx * M + k]);
      buf.sort();
      lower[i] = empiricalQuantile(buf, lo);
      upper[i] = empiricalQuantile(buf, hi);
    }
  }
  return { lower, upper };
}

/** Type-7 (linear interpolation) quantile of sorted values, as R's default and numpy's. */
function empiricalQuantile(sorted: Float64Array, p: number): number {
  const h = (sorted.length - 1) * p;
  const i = Math.floor(h);
  return i + 1 < sorted.length ? sorted[i] + (h - i) * (sorted[i + 1] - sorted[i]) : sorted[i];
}

/**
 * A model's forecast variance of the horizon-end return, for QLIKE: the random walk's σ̂²h, the sample
 * variance of samples, or the normal variance implied by a quantile model's interquartile (q0.25–q0.75)
 * or q0.1–q0.9 range, flagged approximate unless the quantiles are Gaussian by construction
 * (`gaussianQuantiles`: the scorer's ARIMA and GARCH, whose implied variance is their own σ²). Null for
 * point forecasts.
 */
export function forecastVariance(
  panel: EvaluationPanel,
  model: ModelForecasts,
  frame: TycheonFrame,
): { variance: Float64Array; approximate: boolean } | null {
  const n = frame.origins.length;
  if (isRandomWalk(model)) return { variance: frame.rwSigma.map((x) => x * x), approximate: false };
  const M = model.sampleCount;
  const levels = model.quantileLevels ?? [];
  const K = levels.length;
  const find = (l: number) => levels.findIndex((x) => Math.abs(x - l) < 1e-9);
  let lo = find(0.25);
  let hi = find(0.75);
  let width = 2 * normalQuantile(0.75);
  if (lo < 0 || hi < 0) {
    lo = find(0.1);
    hi = find(0.9);
    width = 2 * normalQuantile(0.9);
  }
  if (M < 2 && (K === 0 || lo < 0 || hi < 0)) return null;
  const variance = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const o = frame.origins[i];
    const idx = panel.targetOffset[o] + panel.horizon[o] - 1;
    const y0 = panel.lastValue[o];
    if (M >= 2) {
      let mean = 0;
      for (let k = 0; k < M; k++) mean += tycheonReturn(frame, i, y0, model.samples![idx * M + k]);
      mean /= M;
      let ss = 0;
      for (let k = 0; k < M; k++)
        ss += (tycheonReturn(frame, i, y0, model.samples![idx * M + k]) - mean) ** 2;
      variance[i] = ss / (M - 1);
    } else {
      const sd =
        (tycheonReturn(frame, i, y0, model.quantiles![idx * K + hi]) -
          tycheonReturn(frame, i, y0, model.quantiles![idx * K + lo])) /
        width;
      variance[i] = sd * sd;
    }
  }
  return { variance, approximate: M < 2 && !model.gaussianQuantiles };
}
