import type { PointBaselineModel } from './baseline-models.ts';
import { driftPath } from './drift-path.ts';
import { seasonalNaivePath } from './seasonal-naive-path.ts';

/**
 * One point baseline's path (random walk, drift, seasonal naive), the scorer's entry to them ŷ_{o+1..o+H} into `out[offset…offset+H−1]`, from what is known at the origin only:
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
 *  - seasonal_naive: seasonalNaivePath (seasonal-naive-path.ts, the one implementation): ŷ_{o+k} = the tail
 *    value at grid step o+k−m⌈k/m⌉ (back b = m⌈k/m⌉ − k), m = SEASON_LENGTH; when that step is not in the
 *    tail (not public at the origin), the most recent tail value of the same season (back b + m, b + 2m, …);
 *    when there is none, y_o. m = 1: the random walk.
 * Drift is the random walk when y_1 and y_o are on the same step. Without `tailBack` (hand-made panels)
 * the tail is taken as consecutive grid steps ending at the origin's own step (u = 0). `asof baselines`
 * computes the same paths through the split's historyAt guard (packages/split driftForecaster,
 * seasonalNaiveForecaster, which call driftPath and seasonalNaivePath); packages/cli/src/baselines-command.test.ts
 * checks they agree.
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
  if (kind === 'seasonal_naive') {
    seasonalNaivePath(tail ?? [], backOf, lastValue, horizon, seasonLength, out, offset);
    return;
  }
  for (let k = 0; k < horizon; k++) out[offset + k] = lastValue;
}
