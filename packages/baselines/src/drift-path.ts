/**
 * The drift baseline's path, the one implementation of it: the scorer's baselinePath and the split's
 * driftForecaster (`asof baselines`) both call it, so the two agree to the bit on the same history.
 *
 * Hyndman's rwf with drift, with the slope measured on the series' grid (docs/decisions/0009, and the
 * drift-on-the-grid record): y_1 and y_o are the first and last observations of the history served as of
 * the origin, `span` the grid steps between them. Counting the observations instead (n − 1) makes the slope
 * too steep wherever the served history has a hole, and a split's does: the README split serves nothing of
 * 2020 for monthly and quarterly series. Target o+k lies k + `lag` steps after y_o (lag u: y_o is the value
 * of step o − u when the series is released late).
 *  - y_1 > 0 and y_o > 0: in log levels (rwf with λ = 0): ŷ_{o+k} = y_o·exp((k + u)·g), g = ln(y_o/y_1)/span;
 *  - otherwise in levels: ŷ_{o+k} = y_o + (k + u)·(y_o − y_1)/span.
 * A span below one step (a single observation, or no step known) is the random walk, y_o at every step.
 * With y_1 = y_o the slope is exactly 0 and every step is y_o bit for bit (exp(0) = 1, y_o + 0 = y_o).
 */
export function driftPath(
  first: number,
  last: number,
  span: number,
  lag: number,
  horizon: number,
  out: { [k: number]: number },
  offset = 0,
): void {
  if (!(span >= 1)) {
    for (let k = 0; k < horizon; k++) out[offset + k] = last;
    return;
  }
  if (first > 0 && last > 0) {
    const g = Math.log(last / first) / span;
    for (let k = 1; k <= horizon; k++) out[offset + k - 1] = last * Math.exp((k + lag) * g);
    return;
  }
  const d = (last - first) / span;
  for (let k = 1; k <= horizon; k++) out[offset + k - 1] = last + (k + lag) * d;
}
