import type { ModelForecasts } from './align-forecasts.ts';
import type { EvaluationPanel } from './build-evaluation-panel.ts';
import { BASELINE_MODELS, type BaselineModel, type ForecastRow, type OriginRow } from './score-types.ts';

/** Season length in steps per frequency (weekday week, week, year, year, year); A has none (random walk). */
export const SEASON_LENGTH: Record<string, number> = { BD: 5, D: 7, W: 52, M: 12, Q: 4, A: 1 };

/**
 * One baseline's path ŷ_{o+1..o+H} into `out[offset…offset+H−1]`, from what is known at the origin only:
 * y_o, the history tail (oldest first, ending with y_o) and the whole history's first value y_1 and length
 * n. No target is ever passed in, so a baseline cannot look ahead.
 *  - random_walk: ŷ_{o+k} = y_o.
 *  - drift: Hyndman's rwf drift over the WHOLE history known at the origin (the as-of view at the origin:
 *    first value y_1 and number of observations n). When y_1 > 0 and y_o > 0 it is taken in log levels
 *    (rwf with λ = 0): ŷ_{o+k} = y_o·exp(k·g), g = ln(y_o/y_1)/(n − 1), the mean one-step log change;
 *    otherwise in levels: ŷ_{o+k} = y_o + k·(y_o − y_1)/(n − 1). Prices are multiplicative and the Tycheon
 *    verdict compares horizon-end returns, so a level slope (a price that fell from 100 to 10 extrapolates
 *    ~9/(n − 1) per step from 10, even below zero) would be a strawman; docs/decisions/0009. When y_1 and n
 *    are not given (NaN), the tail is taken as the whole history (y_1 = tail[0], n = L).
 *  - seasonal_naive: ŷ_{o+k} = y_{o+k−m⌈k/m⌉} (the same position one season back), m = SEASON_LENGTH.
 * Drift and seasonal naive fall back to the random walk when the history is too short (n < 2, L < m) or
 * m = 1. `asof baselines` computes the same paths through the split's historyAt guard (packages/split
 * driftForecaster, seasonalNaiveForecaster); packages/cli/src/baselines-command.test.ts checks they agree.
 */
export function baselinePath(
  kind: BaselineModel,
  lastValue: number,
  tail: ArrayLike<number> | null | undefined,
  horizon: number,
  seasonLength: number,
  out: Float64Array,
  offset: number,
  historyFirst = Number.NaN,
  historyLength = Number.NaN,
): void {
  const L = tail?.length ?? 0;
  if (kind === 'drift') {
    const whole = Number.isFinite(historyFirst) && historyLength >= 1;
    const n = whole ? historyLength : L;
    if (n >= 2) {
      const first = whole ? historyFirst : tail![0];
      if (first > 0 && lastValue > 0) {
        const g = Math.log(lastValue / first) / (n - 1);
        for (let k = 1; k <= horizon; k++) out[offset + k - 1] = lastValue * Math.exp(k * g);
      } else {
        const d = (lastValue - first) / (n - 1);
        for (let k = 1; k <= horizon; k++) out[offset + k - 1] = lastValue + k * d;
      }
      return;
    }
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
      baselinePath(
        kind,
        o.last_value,
        o.history_tail,
        o.horizon,
        m,
        path,
        0,
        o.history_first,
        o.history_length,
      );
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
        panel.historyFirst[o],
        panel.historyLength[o],
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
