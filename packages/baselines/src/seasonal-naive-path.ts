/** Season length in steps per frequency (weekday week, week, year, year, year); A has none (random walk). */
export const SEASON_LENGTH: Record<string, number> = { BD: 5, D: 7, W: 52, M: 12, Q: 4, A: 1 };

/**
 * The seasonal-naive baseline's path into `out[offset…offset+horizon−1]`, the one implementation of it: the
 * scorer's baselinePath (from an origin's history tail) and the split's seasonalNaiveForecaster (`asof
 * baselines`, from the rows its historyAt guard serves) both call it, so the seasonal lag rule has one home.
 *
 * Counted on the series' grid from the origin's own step o, whatever the publication lag: ŷ_{o+k} = the value
 * of grid step o+k−m⌈k/m⌉ (back b = m⌈k/m⌉ − k from the origin's step); when that step is not among the
 * values (not public at the origin, or withdrawn), the most recent value of the same season (back b + m,
 * b + 2m, …); when there is none, `lastValue` (y_o, the random walk). `values` are oldest first and `backOf(r)`
 * is value r's grid steps before the origin's step (0 = the origin's own step). m ≤ 1, or no values: the
 * random walk. Counting back from the last published value instead would shift a lagged series by its lag:
 * a monthly series whose December is released in January would forecast January 2020 with December 2018.
 */
export function seasonalNaivePath(
  values: ArrayLike<number>,
  backOf: (r: number) => number,
  lastValue: number,
  horizon: number,
  m: number,
  out: { [k: number]: number },
  offset = 0,
): void {
  if (!(m > 1) || values.length === 0) {
    for (let k = 0; k < horizon; k++) out[offset + k] = lastValue;
    return;
  }
  // Target k wants back b_k = m⌈k/m⌉ − k, else b_k + m, …: the first value met walking back with back ≡ b_k
  // (mod m) is the most recent public step of that season.
  const wanted = new Uint8Array(m);
  let missing = 0;
  for (let k = 1; k <= Math.min(horizon, m); k++) {
    wanted[m * Math.ceil(k / m) - k] = 1;
    missing++;
  }
  const found = new Float64Array(m).fill(Number.NaN);
  for (let r = values.length - 1; r >= 0 && missing > 0; r--) {
    const back = backOf(r);
    if (!(back >= 0)) continue;
    const b = back % m;
    if (wanted[b] && Number.isNaN(found[b])) {
      found[b] = values[r];
      missing--;
    }
  }
  for (let k = 1; k <= horizon; k++) {
    const v = found[m * Math.ceil(k / m) - k];
    out[offset + k - 1] = Number.isNaN(v) ? lastValue : v;
  }
}
