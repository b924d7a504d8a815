import { autoArima } from './auto-arima.ts';
import {
  BASELINE_QUANTILE_LEVELS,
  type BaselinePath,
  type FittedBaseline,
  normalQuantiles,
  placeOnGrid,
} from './baseline-quantiles.ts';
import { type ArimaFit, fitArima } from './fit-arima.ts';
import { forecastArima, refilterArima } from './forecast-arima.ts';

export interface RefitOptions {
  /** Estimate the parameters at most every K origins of a series (1 = at every origin). Default 10. */
  refitEvery?: number;
  /** Quantile levels; default BASELINE_QUANTILE_LEVELS. */
  levels?: readonly number[];
}

export const DEFAULT_REFIT_EVERY = 10;

interface Cached<F> {
  fit: F;
  origin: number;
  /** The grid step of the origin it was fitted at (NaN when the caller gave none). */
  step: number;
  served: number;
  log: boolean;
}

/**
 * The refit schedule shared by the ARIMA and GARCH baselines: per series, the parameters are estimated
 * at its first origin and then at every K-th origin it is asked for (origins counted in call order, which
 * is ascending origin order in the split's tasks and in the scorer's panel); in between they are reused and
 * only the Kalman/variance filter is run over the origin's own window. Parameters are never reused at an
 * origin earlier than the one they were estimated at (that would carry later data backwards): such a
 * request, or a change of space (log ↔ levels), refits. Nor is a refit made within one horizon of grid
 * steps of the last one: with origins on every step (`asof split --origins all`) K origins are only K
 * steps, and the cost would follow the number of origins (~33,600 fits on the default universe's
 * all-origins split, hours) instead of the data; with origins a horizon or more apart (non_overlapping)
 * this changes nothing.
 */
export class RefitSchedule<F> {
  private readonly cache = new Map<string, Cached<F>>();
  constructor(readonly every: number) {
    if (!(Number.isInteger(every) && every >= 1)) {
      throw new RangeError(`refitEvery must be a whole number ≥ 1, got ${every}`);
    }
  }

  /**
   * The cached fit to reuse at `origin` (grid step `step`, horizon `minSteps`), or null when this origin
   * refits. Counts the origin.
   */
  reuse(seriesKey: string, origin: number, log: boolean, step = Number.NaN, minSteps = 0): { fit: F } | null {
    const c = this.cache.get(seriesKey);
    if (!c || origin < c.origin || c.log !== log) return null;
    // NaN steps (no grid given) compare false: the count alone decides, as without the step rule.
    if (c.served >= this.every && !(step - c.step < minSteps)) return null;
    c.served++;
    return { fit: c.fit };
  }

  store(seriesKey: string, origin: number, log: boolean, fit: F, step = Number.NaN): void {
    this.cache.set(seriesKey, { fit, origin, step, served: 1, log });
  }
}

/**
 * A fit whose forecast is the last value in exact arithmetic, whatever the data: ARIMA(0,1,0) without a
 * drift (the random walk) and a constant window (forecast's rule: its value, zero variance). Other orders
 * forecast a change through estimated coefficients, a mean or a drift.
 */
export function noChangeModel(fit: ArimaFit): boolean {
  if (fit.constantSeries !== undefined) return true;
  const { p, d, q } = fit.order;
  return p === 0 && d === 1 && q === 0 && fit.constant === 'none';
}

/** Whether a window is modelled in logs (every value > 0; gaps, NaN, do not count): ARIMA's and GARCH's rule. */
export function allPositive(x: ArrayLike<number>): boolean {
  for (let i = 0; i < x.length; i++) if (!(x[i] > 0) && !Number.isNaN(x[i])) return false;
  return true;
}

/**
 * The ARIMA baseline at one origin, from what is public there: the origin's input window (tail, oldest
 * first, ending with y_o; `back` = grid steps before the origin's own step, null = consecutive ending at
 * it), placed on the series grid (gaps left missing, which the Kalman filter skips). A series whose window
 * is all > 0 is modelled in log levels (λ = 0, as the drift baseline, docs/decisions/0009), else in levels.
 * At a refit, forecast::auto.arima's order selection and ML fit (`autoArima`); otherwise the cached
 * model re-filtered over the window (`refilterArima`). Target o+k is k + u steps after y_o (u = the
 * publication lag), so the h = u + 1 … u + H step forecasts are taken. Quantiles are the Gaussian
 * mean + z_τ·se, exponentiated in log space (so the point, the median, is exp(mean), forecast's
 * back-transform without bias adjustment). When no ARIMA can be fitted (auto.arima's "No suitable ARIMA
 * model"), or its forecasts leave the float range (exp overflow or underflow of an explosive model far
 * out), ARIMA(0,1,0) — the random walk with σ̂² from the window — is used and flagged `fallback`.
 * Null for fewer than two values (or when even ARIMA(0,1,0) leaves the float range).
 */
export class ArimaBaseline implements FittedBaseline {
  readonly levels: readonly number[];
  private readonly z: Float64Array;
  private readonly schedule: RefitSchedule<ArimaFit>;

  constructor(options: RefitOptions = {}) {
    this.levels = options.levels ?? BASELINE_QUANTILE_LEVELS;
    this.z = normalQuantiles(this.levels);
    this.schedule = new RefitSchedule(options.refitEvery ?? DEFAULT_REFIT_EVERY);
  }

  pathAt(
    seriesKey: string,
    origin: number,
    tail: ArrayLike<number>,
    back: ArrayLike<number> | null,
    horizon: number,
    /** The origin's step on the series grid (origin_index), for the refit spacing; NaN when unknown. */
    originStep = Number.NaN,
  ): BaselinePath | null {
    if (tail.length < 2) return null;
    const { values, u } = placeOnGrid(tail, back);
    const log = allPositive(values);
    const y = log ? Float64Array.from(values, Math.log) : values;
    const cached = this.schedule.reuse(seriesKey, origin, log, originStep, horizon);
    const refit = cached === null;
    let fallback = false;
    let fallbackReason: 'no_suitable_model' | 'forecast_overflow' | undefined;
    let fit: ArimaFit;
    if (cached) fit = refilterArima(cached.fit, y);
    else {
      try {
        fit = autoArima(y).fit;
      } catch {
        fit = fitArima(y, { p: 0, d: 1, q: 0 });
        fallback = true;
        fallbackReason = 'no_suitable_model';
      }
      this.schedule.store(seriesKey, origin, log, fit, originStep);
    }
    const y0 = tail[tail.length - 1];
    let out = this.quantilePath(fit, horizon, u, log, y0);
    if (!out && !fallback) {
      // An explosive model (e.g. d = 2 far out) can overflow exp() or the float range: the random walk
      // ARIMA(0,1,0) on the same window instead, flagged as a fallback.
      fit = fitArima(y, { p: 0, d: 1, q: 0 });
      out = this.quantilePath(fit, horizon, u, log, y0);
      fallback = true;
      fallbackReason = 'forecast_overflow';
    }
    if (!out) return null;
    return {
      ...out,
      levels: this.levels,
      refit,
      fallback,
      ...(fallbackReason ? { fallbackReason } : {}),
      ...(noChangeModel(fit) ? { noChange: true } : {}),
    };
  }

  /**
   * Point (median) and quantiles of steps u+1…u+H; null when a value is not finite (or not > 0 in logs).
   * A no-change model (noChangeModel) is laid around y_o itself: its median is y_o bit for bit and its
   * quantiles y_o·exp(z·se) (y_o + z·se in levels). Through its mean it would be exp(ln y_o), which is y_o
   * in exact arithmetic but often an ulp away in floats, a forecast return of ±2e-16 that IC, RankIC and
   * directional accuracy read as a forecast (audit scoring-2026-12, mismatch 1).
   */
  private quantilePath(
    fit: ArimaFit,
    horizon: number,
    u: number,
    log: boolean,
    y0: number,
  ): { point: Float64Array; quantiles: Float64Array } | null {
    const fc = forecastArima(fit, horizon + u);
    const K = this.levels.length;
    const point = new Float64Array(horizon);
    const quantiles = new Float64Array(horizon * K);
    const ok = (v: number) => Number.isFinite(v) && (!log || v > 0);
    const still = noChangeModel(fit);
    for (let k = 0; k < horizon; k++) {
      const m = fc.mean[u + k];
      const s = fc.se[u + k];
      point[k] = still ? y0 : log ? Math.exp(m) : m;
      if (!ok(point[k])) return null;
      for (let j = 0; j < K; j++) {
        const q = still ? this.z[j] * s : m + this.z[j] * s;
        quantiles[k * K + j] = still ? (log ? y0 * Math.exp(q) : y0 + q) : log ? Math.exp(q) : q;
        if (!ok(quantiles[k * K + j])) return null;
      }
    }
    return { point, quantiles };
  }
}
