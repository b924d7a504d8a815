import { seasonalNaivePath } from '@asof/baselines';
import { type Forecaster, originStepOf } from './run-forecaster.ts';

/**
 * The seasonal-naive baseline through the look-ahead guard: the rows of the task's input window public at
 * the origin (historyAt with lookback_steps: the split's inputs at the origin), placed on the grid by
 * `gridStep` (the split's step_index; the origin's step is the task's origin_index), go to
 * @asof/baselines' seasonalNaivePath, the one implementation the scorer's baselinePath also calls (counted
 * on the grid from the origin's own step, whatever the publication lag; the most recent public step of the
 * same season when a step is not public; else the random walk). `seasonLengthOf` gives m per series
 * (SEASON_LENGTH by frequency); m ≤ 1 is the random walk. No rows: nothing.
 */
export function seasonalNaiveForecaster(seasonLengthOf: (seriesId: string) => number): Forecaster {
  return (task, history) => {
    const rows = history.historyAt(task.series_id, history.origin, task.lookback_steps);
    if (rows.length === 0) return [];
    const origin = originStepOf(task, history);
    const out = new Float64Array(task.horizon_steps);
    seasonalNaivePath(
      rows.map((r) => r.value),
      (r) => origin - history.gridStep(task.series_id, rows[r].timestamp),
      rows[rows.length - 1].value,
      task.horizon_steps,
      seasonLengthOf(task.series_id),
      out,
    );
    return Array.from(out);
  };
}
