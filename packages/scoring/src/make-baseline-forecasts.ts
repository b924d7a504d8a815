import type { ModelForecasts } from './align-forecasts.ts';
import type { EvaluationPanel } from './build-evaluation-panel.ts';
import { BASELINE_MODELS, type BaselineModel, type ForecastRow, type OriginRow } from './score-types.ts';

/** Season length in steps per frequency (weekday week, week, year, year, year); A has none (random walk). */
export const SEASON_LENGTH: Record<string, number> = { BD: 5, D: 7, W: 52, M: 12, Q: 4, A: 1 };

/**
 * One baseline's path ŷ_{o+1..o+H} into `out[offset…offset+H−1]`, from what is known at the origin only:
 * y_o (the last value public at the origin), the history tail (the origin's inputs, oldest first, ending
 * with y_o), each tail value's grid steps before the origin's own step (`tailBack`; 0 = the origin's step)
 * and the whole history's first value y_1 and length n. No target is ever passed in, so a baseline cannot
 * look ahead. Step o+k is the k-th grid step after the origin's step, so for a series released late (y_o is
 * the value of step o−u, u = tailBack[L−1] ≥ 1) the lag counts:
 *  - random_walk: ŷ_{o+k} = y_o.
 *  - drift: Hyndman's rwf drift over the WHOLE history known at the origin (the as-of view at the origin:
 *    first value y_1 and number of observations n), extrapolated h = k + u steps from y_o's step. When
 *    y_1 > 0 and y_o > 0 it is taken in log levels (rwf with λ = 0): ŷ_{o+k} = y_o·exp(h·g),
 *    g = ln(y_o/y_1)/(n − 1), the mean one-step log change; otherwise in levels: ŷ_{o+k} = y_o +
 *    h·(y_o − y_1)/(n − 1). Prices are multiplicative and the Tycheon verdict compares horizon-end returns,
 *    so a level slope (a price that fell from 100 to 10 extrapolates ~9/(n − 1) per step from 10, even below
 *    zero) would be a strawman; docs/decisions/0009. When y_1 and n are not given (NaN), the tail is taken
 *    as the whole history (y_1 = tail[0], n = L).
 *  - seasonal_naive: ŷ_{o+k} = the tail value at grid step o+k−m⌈k/m⌉ (back b = m⌈k/m⌉ − k), m =
 *    SEASON_LENGTH; when that step is not in the tail (not public at the origin), the most recent tail
 *    value of the same season (back b + m, b + 2m, …); when there is none, y_o. m = 1: the random walk.
 * Drift falls back to the random walk when n < 2. Without `tailBack` (hand-made panels) the tail is taken
 * as consecutive grid steps ending at the origin's own step (u = 0). `asof baselines` computes the same
 * paths through the split's historyAt guard (packages/split driftForecaster, seasonalNaiveForecaster);
 * packages/cli/src/baselines-command.test.ts checks they agree.
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
  tailBack: ArrayLike<number> | null = null,
): void {
  const L = tail?.length ?? 0;
  const backOf = (r: number) => (tailBack ? tailBack[r] : L - 1 - r);
  if (kind === 'drift') {
    const whole = Number.isFinite(historyFirst) && historyLength >= 1;
    const n = whole ? historyLength : L;
    if (n >= 2) {
      const first = whole ? historyFirst : tail![0];
      const u = L > 0 ? backOf(L - 1) : 0;
      if (first > 0 && lastValue > 0) {
        const g = Math.log(lastValue / first) / (n - 1);
        for (let k = 1; k <= horizon; k++) out[offset + k - 1] = lastValue * Math.exp((k + u) * g);
      } else {
        const d = (lastValue - first) / (n - 1);
        for (let k = 1; k <= horizon; k++) out[offset + k - 1] = lastValue + (k + u) * d;
      }
      return;
    }
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
        o.history_tail_back ?? null,
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
