import { type BaselinePath, MAX_HISTORY_TAIL, quantileColumnName } from '@asof/baselines';
import type { Micros } from '@asof/calendar';
import type { HistoryStore, OriginView } from './history-store.ts';
import { type ForecastRow, type ForecastTask, originStepOf } from './run-forecaster.ts';

/** A forecaster of a point path with quantiles; null when it has nothing to say at this origin. */
export type PathForecaster = (task: ForecastTask, history: OriginView) => BaselinePath | null;

/** One forecast row with its quantiles by forecast-file column name ('q0.05' → value). */
export interface QuantileForecastRow extends ForecastRow {
  quantiles: Record<string, number>;
}

/**
 * The origin's input window as the scorer sees it: the as-of view at the origin over the task's lookback
 * (historyAt with lookback_steps), its last MAX_HISTORY_TAIL values (the scorer's history_tail), and each
 * value's grid steps before the origin's own step (the scorer's history_tail_back). Read through the
 * view, so the look-ahead guard checks every row.
 */
export function originWindow(
  task: ForecastTask,
  history: OriginView,
): { values: Float64Array; back: Float64Array } {
  const rows = history.historyAt(task.series_id, history.origin, task.lookback_steps);
  const kept = rows.slice(Math.max(0, rows.length - MAX_HISTORY_TAIL));
  const origin = originStepOf(task, history);
  return {
    values: Float64Array.from(kept, (r) => r.value),
    back: Float64Array.from(kept, (r) => origin - history.gridStep(task.series_id, r.timestamp)),
  };
}

/**
 * Runs a path forecaster over tasks (in their order: per series ascending origins, which the ARIMA and
 * GARCH refit schedules count on). As runForecaster, LookaheadError is never caught.
 */
export function runPathForecaster(
  store: HistoryStore,
  tasks: readonly ForecastTask[],
  forecaster: PathForecaster,
): QuantileForecastRow[] {
  const out: QuantileForecastRow[] = [];
  for (const task of tasks) {
    const path = forecaster(task, store.atOrigin(task.origin as Micros));
    if (!path) continue;
    const names = path.levels.map(quantileColumnName);
    const K = names.length;
    for (let k = 0; k < path.point.length; k++) {
      const quantiles: Record<string, number> = {};
      for (let j = 0; j < K; j++) quantiles[names[j]] = path.quantiles[k * K + j];
      out.push({
        series_id: task.series_id,
        origin: task.origin,
        step: k + 1,
        value: path.point[k],
        quantiles,
      });
    }
  }
  return out;
}
