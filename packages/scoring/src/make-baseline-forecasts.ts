import type { ModelForecasts } from './align-forecasts.ts';
import type { EvaluationPanel } from './build-evaluation-panel.ts';
import { BASELINE_MODELS, type BaselineModel, type ForecastRow, type OriginRow } from './score-types.ts';

/** Season length in steps per frequency (weekday week, week, year, year, year); A has none (random walk). */
export const SEASON_LENGTH: Record<string, number> = { BD: 5, D: 7, W: 52, M: 12, Q: 4, A: 1 };

/**
 * One baseline's path ŷ_{o+1..o+H} into `out[offset…offset+H−1]`, from what is known at the origin only:
 * y_o and the history tail (oldest first, ending with y_o). No target is ever passed in, so a baseline
 * cannot look ahead.
 *  - random_walk: ŷ_{o+k} = y_o.
 *  - drift: ŷ_{o+k} = y_o + k·(y_o − y_{o−L+1})/(L − 1), the mean one-step change over the tail.
 *  - seasonal_naive: ŷ_{o+k} = y_{o+k−m⌈k/m⌉} (the same position one season back), m = SEASON_LENGTH.
 * Drift and seasonal naive fall back to the random walk when the tail is too short (L < 2, L < m) or m = 1.
 */
export function baselinePath(
  kind: BaselineModel,
  lastValue: number,
  tail: ArrayLike<number> | null | undefined,
  horizon: number,
  seasonLength: number,
  out: Float64Array,
  offset: number,
): void {
  const L = tail?.length ?? 0;
  if (kind === 'drift' && L >= 2) {
    const d = (lastValue - tail![0]) / (L - 1);
    for (let k = 1; k <= horizon; k++) out[offset + k - 1] = lastValue + k * d;
    return;
  }
  if (kind === 'seasonal_naive' && seasonLength > 1 && L >= seasonLength) {
    const m = seasonLength;
    for (let k = 1; k <= horizon; k++) {
      const back = m * Math.ceil(k / m) - k; // steps before the origin: y_{o−back}
      out[offset + k - 1] = back === 0 ? lastValue : tail![L - 1 - back];
    }
    return;
  }
  for (let k = 0; k < horizon; k++) out[offset + k] = lastValue;
}

/** The three baselines as ForecastRow objects for a list of origins (small inputs, inspection, tests). */
export function makeBaselineForecasts(
  origins: readonly OriginRow[],
  frequencyOf: (seriesId: string) => string | undefined = () => undefined,
): ForecastRow[] {
  const rows: ForecastRow[] = [];
  for (const kind of BASELINE_MODELS) {
    for (const o of origins) {
      const path = new Float64Array(o.horizon);
      const m = SEASON_LENGTH[frequencyOf(o.series_id) ?? ''] ?? 1;
      baselinePath(kind, o.last_value, o.history_tail, o.horizon, m, path, 0);
      for (let k = 0; k < o.horizon; k++)
        rows.push({ model: kind, series_id: o.series_id, origin: o.origin, step: k + 1, value: path[k] });
    }
  }
  return rows;
}

/** The baselines laid onto a panel (the scorer's path: flat arrays, no row objects). */
export function makePanelBaselines(
  panel: EvaluationPanel,
  frequencyBySeries: ArrayLike<string | undefined>,
  kinds: readonly BaselineModel[] = BASELINE_MODELS,
): ModelForecasts[] {
  return kinds.map((kind) => {
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
