import { allPositive, DEFAULT_REFIT_EVERY, type RefitOptions, RefitSchedule } from './arima-baseline.ts';
import {
  BASELINE_QUANTILE_LEVELS,
  type BaselinePath,
  type FittedBaseline,
  normalQuantiles,
  placeOnGrid,
} from './baseline-quantiles.ts';
import {
  type FitGarchOptions,
  fitGarch,
  type GarchFit,
  garchVarianceForecast,
  refilterGarch,
} from './fit-garch.ts';

/** Fewer one-step returns than this in the window: no GARCH fit, the constant-variance fallback. */
export const GARCH_MIN_RETURNS = 30;

/**
 * Why GARCH(1,1) was not fitted at an origin (its constant-variance fallback was used): fewer than
 * GARCH_MIN_RETURNS returns in the window at the refit in use ('short_window'), the ML fit threw (every
 * return zero, a non-finite return: 'fit_failed'), or the fitted model's next variance is not a finite
 * positive number ('no_variance'). Between refits an origin inherits its refit's reason.
 */
export type GarchFallbackReason = 'short_window' | 'fit_failed' | 'no_variance';

export interface GarchBaselineOptions extends RefitOptions {
  /** Innovation law of the fit; default normal. The quantiles are Gaussian either way (see GarchBaseline). */
  distribution?: FitGarchOptions['distribution'];
}

/**
 * The GARCH(1,1) baseline at one origin: a volatility forecast around the random walk. From the origin's
 * input window (as ArimaBaseline takes it) the one-step returns between consecutive grid steps are taken —
 * log returns ln(y_t/y_{t−1}) when the window is all > 0, else changes y_t − y_{t−1} — and a zero-mean
 * GARCH(1,1) is fitted by ML (`fitGarch`; refitted every K origins, re-filtered in between). Target o+k is
 * k + u steps after y_o, so its horizon return has variance V_k = σ²_{n+1} + … + σ²_{n+k+u}
 * (`garchVarianceForecast`). The forecast is
 *   point ŷ_{o+k} = y_o (zero mean return: the random walk's median),
 *   quantile τ: y_o·exp(z_τ√V_k) in log space, y_o + z_τ√V_k in levels,
 * Gaussian in the horizon return (exact for one step with normal innovations, the usual approximation
 * beyond), so the scorer's quantile-implied variance ((q0.75 − q0.25)/(2z_0.75))² is V_k itself and QLIKE
 * and interval coverage read the GARCH variance directly. A fit with α + β ≥ 1 (no long-run variance) is
 * forecast with the persistence capped at 1 (IGARCH: σ²_{n+k} = σ²_{n+1} + (k − 1)ω), so the h-step
 * variance does not grow geometrically. With fewer than GARCH_MIN_RETURNS returns, or when the fit fails,
 * σ² is the window's mean squared return for every step (flagged `fallback`, with its GarchFallbackReason):
 * a constant variance around the random walk, which is not GARCH, so the scorer scores GARCH only at the
 * origins where it was fitted (docs/decisions/0059).
 * Null for fewer than two returns.
 */
export class GarchBaseline implements FittedBaseline {
  readonly levels: readonly number[];
  private readonly z: Float64Array;
  private readonly schedule: RefitSchedule<GarchFit | GarchFallbackReason>;
  private readonly distribution: FitGarchOptions['distribution'];

  constructor(options: GarchBaselineOptions = {}) {
    this.levels = options.levels ?? BASELINE_QUANTILE_LEVELS;
    this.z = normalQuantiles(this.levels);
    this.schedule = new RefitSchedule(options.refitEvery ?? DEFAULT_REFIT_EVERY);
    this.distribution = options.distribution ?? 'normal';
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
    const returns: number[] = [];
    for (let i = 1; i < values.length; i++) {
      if (Number.isNaN(values[i]) || Number.isNaN(values[i - 1])) continue;
      returns.push(log ? Math.log(values[i] / values[i - 1]) : values[i] - values[i - 1]);
    }
    if (returns.length < 2) return null;
    const y0 = tail[tail.length - 1];
    const steps = horizon + u;
    const cached = this.schedule.reuse(seriesKey, origin, log, originStep, horizon);
    const refit = cached === null;
    let fit: GarchFit | null = null;
    let reason: GarchFallbackReason | undefined;
    if (cached) {
      if (typeof cached.fit === 'string') reason = cached.fit;
      else fit = refilterGarch(cached.fit, returns);
    } else {
      if (returns.length < GARCH_MIN_RETURNS) reason = 'short_window';
      else {
        try {
          fit = fitGarch(returns, { distribution: this.distribution });
        } catch {
          reason = 'fit_failed';
        }
      }
      this.schedule.store(seriesKey, origin, log, fit ?? reason!, originStep);
    }
    const usable = fit !== null && Number.isFinite(fit.nextVariance) && fit.nextVariance > 0;
    if (fit !== null && !usable) reason = 'no_variance';
    let sigma2: Float64Array;
    if (usable && fit!.alpha + fit!.beta < 1) sigma2 = garchVarianceForecast(fit!, steps);
    else if (usable) {
      // α + β ≥ 1 (a volatility regime shift in the window fits as persistence just above 1, or worse): no
      // long-run variance, and σ²_{n+k} = ω + (α+β)σ²_{n+k−1} grows geometrically (on the default split it
      // overflowed exp(z√V) at H = 260). The forecast caps the persistence at 1, IGARCH's: the current
      // variance is held, plus ω a step.
      sigma2 = new Float64Array(steps);
      let v = fit!.nextVariance;
      for (let k = 0; k < steps; k++) {
        sigma2[k] = v;
        v = fit!.omega + v;
      }
    } else {
      let m2 = 0;
      for (const r of returns) m2 += r * r;
      sigma2 = new Float64Array(steps).fill(m2 / returns.length);
    }
    const fallback = !usable;
    const K = this.levels.length;
    const point = new Float64Array(horizon).fill(y0);
    const quantiles = new Float64Array(horizon * K);
    let V = 0;
    for (let s = 0; s < u; s++) V += sigma2[s];
    for (let k = 0; k < horizon; k++) {
      V += sigma2[u + k];
      const sd = Math.sqrt(V);
      for (let j = 0; j < K; j++) {
        quantiles[k * K + j] = log ? y0 * Math.exp(this.z[j] * sd) : y0 + this.z[j] * sd;
      }
    }
    return {
      point,
      levels: this.levels,
      quantiles,
      refit,
      fallback,
      ...(reason ? { fallbackReason: reason } : {}),
      ...(usable && !fit!.converged ? { notConverged: true } : {}),
    };
  }
}
