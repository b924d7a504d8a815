import { type Forecaster, originStepOf } from './run-forecaster.ts';

/**
 * The seasonal-naive baseline, counted on the series' grid from the origin's own step o (whatever the
 * publication lag): ŷ_{o+k} = the value of grid step o+k−m⌈k/m⌉ as known at the origin. When that step is
 * not public at the origin (not released yet, or withdrawn), the most recent public step of the same season
 * (same step modulo m: o+k−m⌈k/m⌉−m, −2m, …); when none is, the random walk (the last value public at the
 * origin). Steps are looked up in the task's input window (historyAt with lookback_steps: the split's
 * inputs at the origin), and placed on the grid by `gridStep` (the split's step_index; the origin's step is
 * the task's origin_index). `seasonLengthOf` gives m per series (the scorer's SEASON_LENGTH by frequency);
 * m ≤ 1 is the random walk. The scorer's baselinePath (@asof/scoring) computes the same path from the
 * inputs' history tail and its grid steps.
 *
 * Counting back from the last published row instead would shift a lagged series by its lag: a monthly
 * series whose December is released in January would forecast January 2020 with December 2018.
 */
export function seasonalNaiveForecaster(seasonLengthOf: (seriesId: string) => number): Forecaster {
  return (task, history) => {
    const rows = history.historyAt(task.series_id, history.origin, task.lookback_steps);
    if (rows.length === 0) return [];
    const H = task.horizon_steps;
    const last = rows[rows.length - 1].value;
    const m = seasonLengthOf(task.series_id);
    if (!(m > 1)) return Array.from({ length: H }, () => last);
    // back = grid steps before the origin's step; target k wants back b_k = m⌈k/m⌉ − k, else b_k + m, …:
    // the first row met walking back with back ≡ b_k (mod m) is the most recent public step of that season.
    const wanted = new Uint8Array(m);
    let missing = 0;
    for (let k = 1; k <= Math.min(H, m); k++) {
      wanted[m * Math.ceil(k / m) - k] = 1;
      missing++;
    }
    const found: (number | undefined)[] = new Array(m);
    const origin = originStepOf(task, history);
    for (let r = rows.length - 1; r >= 0 && missing > 0; r--) {
      const back = origin - history.gridStep(task.series_id, rows[r].timestamp);
      if (!(back >= 0)) continue;
      const b = back % m;
      if (wanted[b] && found[b] === undefined) {
        found[b] = rows[r].value;
        missing--;
      }
    }
    return Array.from({ length: H }, (_, i) => found[m * Math.ceil((i + 1) / m) - (i + 1)] ?? last);
  };
}
