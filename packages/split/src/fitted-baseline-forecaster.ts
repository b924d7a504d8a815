import type { FittedBaseline } from '@asof/baselines';
import { originWindow, type PathForecaster } from './run-path-forecaster.ts';

/**
 * A fitted baseline behind the look-ahead guard: each origin's input window public there (originWindow: the
 * scorer's history_tail and history_tail_back) and its grid step (origin_index, for the refit spacing) go
 * to the baseline. It holds the refit cache of a run: tasks in the split's order (per series, ascending
 * origins), a new one per run.
 */
export function fittedBaselineForecaster(baseline: FittedBaseline): PathForecaster {
  return (task, history) => {
    const { values, back } = originWindow(task, history);
    return baseline.pathAt(
      task.series_id,
      task.origin,
      values,
      back,
      task.horizon_steps,
      task.origin_index ?? Number.NaN,
    );
  };
}
