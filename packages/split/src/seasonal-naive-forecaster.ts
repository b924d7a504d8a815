import type { Forecaster } from './run-forecaster.ts';

/**
 * The seasonal-naive baseline: ŷ_{o+k} = y_{o+k−m⌈k/m⌉}, the same position one season back, over the task's
 * input window (historyAt with lookback_steps: the split's inputs at the origin). `seasonLengthOf` gives m
 * per series (the scorer's SEASON_LENGTH by frequency); m ≤ 1 or a window shorter than m gives the random
 * walk, as the scorer's baselinePath does.
 */
export function seasonalNaiveForecaster(seasonLengthOf: (seriesId: string) => number): Forecaster {
  return (task, history) => {
    const rows = history.historyAt(task.series_id, history.origin, task.lookback_steps);
    if (rows.length === 0) return [];
    const L = rows.length;
    const last = rows[L - 1].value;
    const m = seasonLengthOf(task.series_id);
    if (!(m > 1) || L < m) return Array.from({ length: task.horizon_steps }, () => last);
    return Array.from({ length: task.horizon_steps }, (_, i) => {
      const k = i + 1;
      const back = m * Math.ceil(k / m) - k;
      return back === 0 ? last : rows[L - 1 - back].value;
    });
  };
}
