import { normalQuantile } from '@asof/stats';

/** The quantile grid the ARIMA and GARCH baselines emit: 0.05, 0.10, …, 0.95 (so 50/80/90% intervals). */
export const BASELINE_QUANTILE_LEVELS: readonly number[] = Array.from({ length: 19 }, (_, i) =>
  Number(((i + 1) * 0.05).toFixed(2)),
);

/** The forecast-file column of a quantile level: 0.05 → 'q0.05', 0.1 → 'q0.1' (quantileLevelOf's inverse). */
export function quantileColumnName(level: number): string {
  return `q${Number(level.toFixed(6))}`;
}

/** A baseline's forecast at one origin: the point path and its quantiles for steps 1..H. */
export interface BaselinePath {
  /** ŷ_{o+k}, k = 1..H: the median (for ARIMA the back-transformed mean, for GARCH y_o). */
  point: Float64Array;
  /** Quantile levels, ascending. */
  levels: readonly number[];
  /** quantiles[(k−1)·K + j] = the level-j quantile of step k (K = levels.length). */
  quantiles: Float64Array;
  /** True when the parameters were estimated at this origin (false: reused and re-filtered). */
  refit: boolean;
  /** True when the model could not be fitted and the documented fallback was used. */
  fallback: boolean;
  /** Why the fallback was used (GARCH: GarchFallbackReason); absent when the model was fitted. */
  fallbackReason?: string;
  /** The fit in use stopped at its optimiser's iteration limit (its parameters are still used). */
  notConverged?: boolean;
  /**
   * True when the path is no change by construction (a random walk's median, a constant window): every
   * point is y_o itself, bit for bit, not a value computed to equal it (docs/decisions/0055).
   * Absent: the model forecasts a change.
   */
  noChange?: boolean;
}

/**
 * A fitted baseline (ArimaBaseline, GarchBaseline): one path per origin from the input window public there
 * (`tail`, with each value's grid steps before the origin in `back`), its refit cache inside. `originStep`
 * is the origin's step on the series grid (origin_index), for the refit spacing; NaN when unknown.
 */
export interface FittedBaseline {
  pathAt(
    seriesKey: string,
    origin: number,
    tail: ArrayLike<number>,
    back: ArrayLike<number> | null,
    horizon: number,
    originStep?: number,
  ): BaselinePath | null;
}

/** Standard-normal quantiles of the levels. */
export function normalQuantiles(levels: readonly number[]): Float64Array {
  return Float64Array.from(levels, normalQuantile);
}

/**
 * The series window on its grid: values placed by their steps back from the origin (`back`, 0 = the
 * origin's step; null = consecutive steps ending at the origin), gaps NaN, oldest first. `u` is the back
 * of the last value (the publication lag: target o+k is k + u steps after it).
 */
export function placeOnGrid(
  tail: ArrayLike<number>,
  back: ArrayLike<number> | null,
): { values: Float64Array; u: number } {
  const L = tail.length;
  if (!back) return { values: Float64Array.from(tail), u: 0 };
  let hi = -Infinity;
  let lo = Infinity;
  for (let i = 0; i < L; i++) {
    hi = Math.max(hi, back[i]);
    lo = Math.min(lo, back[i]);
  }
  const values = new Float64Array(hi - lo + 1).fill(Number.NaN);
  for (let i = 0; i < L; i++) values[hi - back[i]] = tail[i];
  return { values, u: lo };
}

/**
 * The path a fitted baseline gives where it has no model (a window of fewer than two values): no change,
 * y_o at every step with every quantile y_o, a point mass. The scorer and `asof baselines` both use it, so
 * a baselines file covers every origin and equals the scorer's own.
 */
export function pointMassPath(y0: number, horizon: number, levels: readonly number[]): BaselinePath {
  return {
    point: new Float64Array(horizon).fill(y0),
    levels,
    quantiles: new Float64Array(horizon * levels.length).fill(y0),
    refit: false,
    fallback: true,
    noChange: true,
  };
}
