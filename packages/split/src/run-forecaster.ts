import type { Micros } from '@asof/calendar';
import type { HistoryStore, OriginView } from './history-store.ts';

export interface ForecastTask {
  series_id: string;
  origin: Micros;
  horizon_steps: number;
  lookback_steps?: number;
  /**
   * The origin's step on the series' grid (the split's origin_index); step o+k is the k-th grid step after
   * it. Default: the view's gridStep at the origin.
   */
  origin_index?: number;
}

export interface ForecastRow {
  series_id: string;
  origin: Micros;
  step: number;
  value: number;
}

/** A forecaster gets the task and a view bounded by the origin; it returns horizon_steps values. */
export type Forecaster = (task: ForecastTask, history: OriginView) => number[];

/** The origin's grid step: the task's origin_index, else the view's grid step at the origin. */
export function originStepOf(task: ForecastTask, history: OriginView): number {
  return task.origin_index ?? history.gridStep(task.series_id);
}

/**
 * Runs a forecaster over tasks. LookaheadError is deliberately not caught here (nor anywhere in a runner):
 * a forecaster that reads past its origin aborts the run instead of producing scores.
 */
export function runForecaster(
  store: HistoryStore,
  tasks: readonly ForecastTask[],
  forecaster: Forecaster,
): ForecastRow[] {
  const out: ForecastRow[] = [];
  for (const task of tasks) {
    const values = forecaster(task, store.atOrigin(task.origin));
    for (let k = 0; k < values.length; k++) {
      out.push({ series_id: task.series_id, origin: task.origin, step: k + 1, value: values[k] });
    }
  }
  return out;
}

/**
 * The random walk: y_o = the last value public at the origin (for a series released late, the value of an
 * earlier step than the origin's own), repeated for every step; nothing when no history.
 */
export const randomWalkForecaster: Forecaster = (task, history) => {
  const rows = history.historyAt(task.series_id, history.origin, 1);
  if (rows.length === 0) return [];
  return Array.from({ length: task.horizon_steps }, () => rows[rows.length - 1].value);
};
