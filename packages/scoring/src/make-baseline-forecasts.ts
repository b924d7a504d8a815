import type { ModelForecasts } from './align-forecasts.ts';
import { ArimaBaseline, DEFAULT_REFIT_EVERY } from './baselines/arima-baseline.ts';
import {
  BASELINE_QUANTILE_LEVELS,
  pointMassPath,
  quantileColumnName,
} from './baselines/baseline-quantiles.ts';
import { GarchBaseline } from './baselines/garch-baseline.ts';
import type { EvaluationPanel } from './build-evaluation-panel.ts';
import { driftPath } from './drift-path.ts';
import {
  BASELINE_MODELS,
  type BaselineModel,
  type FittedBaselineModel,
  type ForecastRow,
  type OriginRow,
  type PointBaselineModel,
} from './score-types.ts';

/** Season length in steps per frequency (weekday week, week, year, year, year); A has none (random walk). */
export const SEASON_LENGTH: Record<string, number> = { BD: 5, D: 7, W: 52, M: 12, Q: 4, A: 1 };

/**
 * One baseline's path ŷ_{o+1..o+H} into `out[offset…offset+H−1]`, from what is known at the origin only:
 * y_o (the last value public at the origin), the history tail (the origin's inputs, oldest first, ending
 * with y_o), each tail value's grid steps before the origin's own step (`tailBack`; 0 = the origin's step)
 * and the whole history's first value y_1 with its grid steps before the origin's step (`historyFirstBack`).
 * No target is ever passed in, so a baseline cannot look ahead. Step o+k is the k-th grid step after the
 * origin's step, so for a series released late (y_o is the value of step o−u, u = tailBack[L−1] ≥ 1) the
 * lag counts:
 *  - random_walk: ŷ_{o+k} = y_o.
 *  - drift: driftPath (drift-path.ts, the one implementation): Hyndman's rwf drift over the WHOLE history
 *    served as of the origin, its slope from y_1 and y_o over their distance on the grid,
 *    historyFirstBack − u steps (not their count: a split's served history has holes), extrapolated k + u
 *    steps from y_o's step; in log levels when y_1 > 0 and y_o > 0 (docs/decisions/0009). When y_1 is not
 *    given (NaN), the tail is taken as the whole history (y_1 = tail[0], its own back).
 *  - seasonal_naive: ŷ_{o+k} = the tail value at grid step o+k−m⌈k/m⌉ (back b = m⌈k/m⌉ − k), m =
 *    SEASON_LENGTH; when that step is not in the tail (not public at the origin), the most recent tail
 *    value of the same season (back b + m, b + 2m, …); when there is none, y_o. m = 1: the random walk.
 * Drift is the random walk when y_1 and y_o are on the same step. Without `tailBack` (hand-made panels)
 * the tail is taken as consecutive grid steps ending at the origin's own step (u = 0). `asof baselines`
 * computes the same paths through the split's historyAt guard (packages/split driftForecaster,
 * seasonalNaiveForecaster); packages/cli/src/baselines-command.test.ts checks they agree.
 */
export function baselinePath(
  kind: PointBaselineModel,
  lastValue: number,
  tail: ArrayLike<number> | null | undefined,
  horizon: number,
  seasonLength: number,
  out: Float64Array,
  offset: number,
  historyFirst = Number.NaN,
  historyFirstBack = Number.NaN,
  tailBack: ArrayLike<number> | null = null,
): void {
  const L = tail?.length ?? 0;
  const backOf = (r: number) => (tailBack ? tailBack[r] : L - 1 - r);
  if (kind === 'drift') {
    const u = L > 0 ? backOf(L - 1) : 0;
    const whole = Number.isFinite(historyFirst) && Number.isFinite(historyFirstBack);
    const first = whole ? historyFirst : L > 0 ? tail![0] : lastValue;
    const span = whole ? historyFirstBack - u : L > 0 ? backOf(0) - u : 0;
    driftPath(first, lastValue, span, u, horizon, out, offset);
    return;
  }
  if (kind === 'seasonal_naive' && seasonLength > 1 && L > 0) {
    seasonalNaivePath(tail!, backOf, lastValue, horizon, seasonLength, out, offset);
    return;
  }
  for (let k = 0; k < horizon; k++) out[offset + k] = lastValue;
}

/** Seasonal naive on the grid (see baselinePath): per season the most recent tail value, walking back. */
function seasonalNaivePath(
  tail: ArrayLike<number>,
  backOf: (r: number) => number,
  lastValue: number,
  horizon: number,
  m: number,
  out: Float64Array,
  offset: number,
): void {
  const wanted = new Uint8Array(m);
  let missing = 0;
  for (let k = 1; k <= Math.min(horizon, m); k++) {
    wanted[m * Math.ceil(k / m) - k] = 1;
    missing++;
  }
  const found = new Float64Array(m).fill(Number.NaN);
  for (let r = tail.length - 1; r >= 0 && missing > 0; r--) {
    const back = backOf(r);
    if (!(back >= 0)) continue;
    const b = back % m;
    if (wanted[b] && Number.isNaN(found[b])) {
      found[b] = tail[r];
      missing--;
    }
  }
  for (let k = 1; k <= horizon; k++) {
    const v = found[m * Math.ceil(k / m) - k];
    out[offset + k - 1] = Number.isNaN(v) ? lastValue : v;
  }
}

/** Options of the fitted baselines (ARIMA, GARCH). */
export interface FittedBaselineOptions {
  /** Re-estimate the parameters every K origins of a series (DEFAULT_REFIT_EVERY = 10). */
  refitEvery?: number;
}

/** One fitted baseline's path maker: one instance per run, called per series in ascending origin order. */
function fittedBaseline(kind: FittedBaselineModel, options: FittedBaselineOptions) {
  const refitEvery = options.refitEvery ?? DEFAULT_REFIT_EVERY;
  return kind === 'arima' ? new ArimaBaseline({ refitEvery }) : new GarchBaseline({ refitEvery });
}

export function isFittedBaseline(kind: string): kind is FittedBaselineModel {
  return kind === 'arima' || kind === 'garch';
}

/**
 * Every baseline as ForecastRow objects for a list of origins (small inputs, inspection, tests): the point
 * baselines, and ARIMA and GARCH with their quantiles, the origins of each series in ascending order (as
 * the refit schedule counts them). Where a fitted baseline has no model (a window of one value) it is the
 * point mass at y_o (pointMassPath), as in the scorer and `asof baselines`.
 */
export function makeBaselineForecasts(
  origins: readonly OriginRow[],
  frequencyOf: (seriesId: string) => string | undefined = () => undefined,
  kinds: readonly BaselineModel[] = BASELINE_MODELS,
  options: FittedBaselineOptions = {},
): ForecastRow[] {
  const rows: ForecastRow[] = [];
  const ordered = [...origins].sort(
    (a, b) =>
      (a.series_id < b.series_id ? -1 : a.series_id > b.series_id ? 1 : 0) ||
      Date.parse(a.origin) - Date.parse(b.origin),
  );
  for (const kind of kinds) {
    const fitted = isFittedBaseline(kind) ? fittedBaseline(kind, options) : null;
    for (const o of fitted ? ordered : origins) {
      if (fitted) {
        const tail = o.history_tail ?? [o.last_value];
        const path =
          fitted.pathAt(
            o.series_id,
            Date.parse(o.origin),
            tail,
            o.history_tail_back ?? null,
            o.horizon,
            o.origin_index ?? Number.NaN,
          ) ?? pointMassPath(o.last_value, o.horizon, fitted.levels);
        const names = path.levels.map(quantileColumnName);
        for (let k = 0; k < o.horizon; k++) {
          const quantiles: Record<string, number> = {};
          names.forEach((n, j) => {
            quantiles[n] = path.quantiles[k * names.length + j];
          });
          rows.push({
            model: kind,
            series_id: o.series_id,
            origin: o.origin,
            step: k + 1,
            value: path.point[k],
            quantiles,
          });
        }
        continue;
      }
      const path = new Float64Array(o.horizon);
      const m = SEASON_LENGTH[frequencyOf(o.series_id) ?? ''] ?? 1;
      baselinePath(
        kind as PointBaselineModel,
        o.last_value,
        o.history_tail,
        o.horizon,
        m,
        path,
        0,
        o.history_first,
        o.history_first_back,
        o.history_tail_back ?? null,
      );
      for (let k = 0; k < o.horizon; k++)
        rows.push({ model: kind, series_id: o.series_id, origin: o.origin, step: k + 1, value: path[k] });
    }
  }
  return rows;
}

/** What the fitted baselines could not fit: origins on a fallback, or with no path at all (the random walk). */
export interface FittedBaselineNotes {
  /** Origins of scored series where the model used its documented fallback (BaselinePath.fallback). */
  fallback: number;
  /** Origins of scored series with no path (a window of fewer than two values): the random walk, a point mass. */
  noPath: number;
  /** Origins of scored series (every origin the model was asked for). */
  origins?: number;
  /** The fallback origins by reason (BaselinePath.fallbackReason; GARCH: GarchFallbackReason). */
  reasons?: Record<string, number>;
  /** Fitted origins whose fit stopped at the optimiser's iteration limit (its parameters still used). */
  notConverged?: number;
}

/**
 * The fitted baselines scored only where they were fitted: GARCH's fallback is a constant variance around
 * the random walk, not GARCH, so its fallback and no-path origins are left out of its coverage
 * (docs/decisions/0059). ARIMA's fallback is ARIMA(0,1,0), an ARIMA model: scored everywhere.
 */
export const SCORED_WHERE_FITTED: ReadonlySet<string> = new Set(['garch']);

/**
 * The baselines laid onto a panel (the scorer's path: flat arrays, no row objects). Point baselines for
 * every origin; ARIMA and GARCH for the origins of scored series (a frequency in `frequencyBySeries`), in
 * panel order — per series, ascending origins, as the refit schedule and `asof baselines` count them — from
 * each origin's history tail (and history_tail_back), with quantiles q0.05…q0.95. Where a fitted baseline
 * has no path, and on unscored series, it holds y_o with every quantile y_o (a point mass at no change).
 */
export function makePanelBaselines(
  panel: EvaluationPanel,
  frequencyBySeries: ArrayLike<string | undefined>,
  kinds: readonly BaselineModel[] = BASELINE_MODELS,
  options: FittedBaselineOptions = {},
  notes?: Map<string, FittedBaselineNotes>,
): ModelForecasts[] {
  return kinds.map((kind) => {
    if (isFittedBaseline(kind)) {
      const { forecasts, ...counts } = fittedPanelForecasts(panel, frequencyBySeries, kind, options);
      notes?.set(kind, counts);
      return forecasts;
    }
    const point = new Float64Array(panel.actual.length);
    for (let o = 0; o < panel.originSeries.length; o++) {
      const m = SEASON_LENGTH[frequencyBySeries[panel.originSeries[o]] ?? ''] ?? 1;
      baselinePath(
        kind,
        panel.lastValue[o],
        panel.historyTail[o],
        panel.horizon[o],
        m,
        point,
        panel.targetOffset[o],
        panel.historyFirst[o],
        panel.historyFirstBack[o],
        panel.historyTailBack[o],
      );
    }
    return {
      model: kind,
      baseline: true,
      point,
      quantileLevels: null,
      quantiles: null,
      sampleCount: 0,
      samples: null,
    };
  });
}

function fittedPanelForecasts(
  panel: EvaluationPanel,
  frequencyBySeries: ArrayLike<string | undefined>,
  kind: FittedBaselineModel,
  options: FittedBaselineOptions,
): { forecasts: ModelForecasts } & FittedBaselineNotes {
  const model = fittedBaseline(kind, options);
  const levels = [...BASELINE_QUANTILE_LEVELS];
  const K = levels.length;
  const point = new Float64Array(panel.actual.length);
  const quantiles = new Float64Array(panel.actual.length * K);
  let fallback = 0;
  let noPath = 0;
  let origins = 0;
  let notConverged = 0;
  const reasons: Record<string, number> = {};
  const onlyFitted = SCORED_WHERE_FITTED.has(kind);
  const covered = new Uint8Array(panel.originSeries.length).fill(1);
  let uncovered = 0;
  for (let o = 0; o < panel.originSeries.length; o++) {
    const s = panel.originSeries[o];
    const offset = panel.targetOffset[o];
    const H = panel.horizon[o];
    const scored = frequencyBySeries[s] !== undefined;
    const tail = panel.historyTail[o] ?? Float64Array.of(panel.lastValue[o]);
    const fitted = scored
      ? model.pathAt(
          panel.seriesIds[s],
          panel.originTime[o],
          tail,
          panel.historyTailBack[o],
          H,
          panel.originIndex[o],
        )
      : null;
    const path = fitted ?? pointMassPath(panel.lastValue[o], H, levels);
    point.set(path.point, offset);
    quantiles.set(path.quantiles, offset * K);
    if (!scored) continue;
    origins++;
    if (fitted?.fallback) {
      fallback++;
      const why = fitted.fallbackReason ?? 'fallback';
      reasons[why] = (reasons[why] ?? 0) + 1;
    } else if (fitted?.notConverged) notConverged++;
    if (!fitted) noPath++;
    if (onlyFitted && (!fitted || fitted.fallback)) {
      covered[o] = 0;
      uncovered++;
    }
  }
  return {
    forecasts: {
      model: kind,
      baseline: true,
      point,
      quantileLevels: levels,
      quantiles,
      sampleCount: 0,
      samples: null,
      gaussianQuantiles: true,
      // Unscored series keep 1: they are never scored, and a model fitted at every scored origin is full.
      ...(uncovered ? { covered } : {}),
    },
    fallback,
    noPath,
    origins,
    reasons,
    notConverged,
  };
}
