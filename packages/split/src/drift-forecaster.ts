import { driftPath } from '@asof/baselines';
import { type Forecaster, originStepOf } from './run-forecaster.ts';

/**
 * The drift baseline (Hyndman's rwf with drift) over the WHOLE history public at the origin (historyAt
 * without a lookback), through @asof/baselines' driftPath, the one implementation the scorer's baselinePath
 * also calls, so the two agree to the bit on the same history. Its slope runs from y_1 to y_o over their
 * distance on the series' grid (stepOf: the split's step numbers), not over their count: a split serves
 * nothing of the stretch between its windows (2020 for the README split's monthly series), and counting
 * rows made the slope too steep there. y_1 is the first public row whose step the store holds — the
 * training snapshot's first, unless it was withdrawn (a store rebuilt from a split holds every input's
 * step and the snapshot's as train/series.parquet places them: every row when it has no hole on the grid,
 * else its first and last) — exactly as the scorer's wholeHistoryAt takes it. Target o+k lies k + u steps
 * after y_o's step, u = the grid steps from y_o's step to the origin's (0 for bars, 1 for a monthly series
 * whose origin month is released the month after). docs/decisions/0009. One row, or no step known: the
 * random walk; none: nothing.
 */
export const driftForecaster: Forecaster = (task, history) => {
  const rows = history.historyAt(task.series_id, history.origin);
  if (rows.length === 0) return [];
  const n = rows.length;
  const last = rows[n - 1];
  const lastStep = history.stepOf(task.series_id, last.timestamp);
  let f = 0;
  while (f < n - 1 && Number.isNaN(history.stepOf(task.series_id, rows[f].timestamp))) f++;
  const span = lastStep - history.stepOf(task.series_id, rows[f].timestamp);
  const u = originStepOf(task, history) - lastStep;
  const out = new Float64Array(task.horizon_steps);
  driftPath(rows[f].value, last.value, span, u, task.horizon_steps, out);
  return Array.from(out);
};
