import type { Forecaster } from './run-forecaster.ts';

/**
 * The drift baseline (Hyndman's rwf with drift): ŷ_{o+k} = y_o + k·(y_o − y_1)/(n − 1), the mean one-step
 * change over the WHOLE history public at the origin (historyAt without a lookback: n observations, first
 * y_1, last y_o). Over a short tail the slope is noisy enough to lose to the random walk on a driftless
 * series. Fewer than two observations: the random walk; none: nothing. Same arithmetic as the scorer's
 * baselinePath (@asof/scoring), so the two agree to the bit on the same history.
 */
export const driftForecaster: Forecaster = (task, history) => {
  const rows = history.historyAt(task.series_id, history.origin);
  if (rows.length === 0) return [];
  const last = rows[rows.length - 1].value;
  const n = rows.length;
  if (n < 2) return Array.from({ length: task.horizon_steps }, () => last);
  const d = (last - rows[0].value) / (n - 1);
  return Array.from({ length: task.horizon_steps }, (_, i) => last + (i + 1) * d);
};
