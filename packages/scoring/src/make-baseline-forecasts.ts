import {
  ArimaBaseline,
  BASELINE_QUANTILE_LEVELS,
  baselinePath,
  DEFAULT_REFIT_EVERY,
  GarchBaseline,
  isFittedBaseline,
  type PointBaselineModel,
  pointMassPath,
  quantileColumnName,
  SEASON_LENGTH,
} from '@asof/baselines';
import type { ModelForecasts } from './align-forecasts.ts';
import type { EvaluationPanel } from './build-evaluation-panel.ts';
import {
  BASELINE_MODELS,
  type BaselineModel,
  type FittedBaselineModel,
  type ForecastRow,
  type OriginRow,
} from './score-types.ts';

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
