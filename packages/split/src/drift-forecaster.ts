import { type Forecaster, originStepOf } from './run-forecaster.ts';

/**
 * The drift baseline (Hyndman's rwf with drift) over the WHOLE history public at the origin (historyAt
 * without a lookback: n observations, first y_1, last y_o). Target o+k lies h = k + u steps after y_o's
 * step, u = the grid steps from y_o's step to the origin's (0 for bars, 1 for a monthly series whose
 * origin month is released the month after). In log levels when y_1 > 0 and y_o > 0 (rwf with λ = 0:
 * ŷ_{o+k} = y_o·exp(h·ln(y_o/y_1)/(n − 1))), else in levels (ŷ_{o+k} = y_o + h·(y_o − y_1)/(n − 1));
 * docs/decisions/0009. Fewer than two observations: the random walk; none: nothing. Same arithmetic as the
 * scorer's baselinePath (@asof/scoring), so the two agree to the bit on the same history.
 */
export const driftForecaster: Forecaster = (task, history) => {
  const rows = history.historyAt(task.series_id, history.origin);
  if (rows.length === 0) return [];
  const last = rows[rows.length - 1].value;
  const n = rows.length;
  if (n < 2) return Array.from({ length: task.horizon_steps }, () => last);
  const first = rows[0].value;
  const u = originStepOf(task, history) - history.gridStep(task.series_id, rows[n - 1].timestamp);
  if (first > 0 && last > 0) {
    const g = Math.log(last / first) / (n - 1);
    return Array.from({ length: task.horizon_steps }, (_, i) => last * Math.exp((i + 1 + u) * g));
  }
  const d = (last - first) / (n - 1);
  return Array.from({ length: task.horizon_steps }, (_, i) => last + (i + 1 + u) * d);
};
