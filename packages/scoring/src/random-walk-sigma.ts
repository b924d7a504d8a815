import { sampleStd } from './metrics/sample-std.ts';

/**
 * The random walk is N(0, σ̂²h) in horizon-end Tycheon space (Tycheon methodology: "no change, with
 * volatility estimated from the recent past"); its point forecast y_o is that distribution's median. This
 * is the one place σ̂'s window is stated:
 *
 * - **Window**: the origin's input window as the split serves it, i.e. the history tail (the as-of view at
 *   the origin over the split's `lookback_steps`: 260 BD, 365 D, 52 W, 12 M, 4 Q, 4 A steps by default,
 *   at most MAX_HISTORY_TAIL = 400 values). Nothing after the origin, and nothing the split did not serve.
 * - **σ̂**: the sample std (n − 1) of the one-step returns between adjacent grid steps of that window (log
 *   returns for a positive series, scaled changes otherwise; a step next to a gap, a withdrawn or unreleased
 *   value, gives no return). At least RANDOM_WALK_MIN_RETURNS returns, else σ̂ is unknown (NaN) and the
 *   random walk is a point mass at 0.
 * - **h**: the steps from y_o to the horizon end, H + u (u = the publication lag: y_o is the value of step
 *   o − u), as the GARCH baseline counts them.
 *
 * The returned value is σ̂·√h, the standard deviation of the horizon-end return. `back` gives each tail
 * value's grid steps before the origin's own step (null: consecutive steps ending at the origin's step);
 * `toReturn(y0, y)` is the series' one-step return in its Tycheon space.
 */
export function randomWalkSigma(
  tail: ArrayLike<number> | null,
  back: ArrayLike<number> | null,
  horizon: number,
  toReturn: (y0: number, y: number) => number,
): number {
  if (tail === null || tail.length < RANDOM_WALK_MIN_RETURNS + 1) return Number.NaN;
  const steps: number[] = [];
  for (let k = 1; k < tail.length; k++) {
    if (back && back[k - 1] - back[k] !== 1) continue;
    steps.push(toReturn(tail[k - 1], tail[k]));
  }
  if (steps.length < RANDOM_WALK_MIN_RETURNS) return Number.NaN;
  const u = back ? back[back.length - 1] : 0;
  const sigma = sampleStd(steps) * Math.sqrt(horizon + u);
  return sigma > 0 && Number.isFinite(sigma) ? sigma : Number.NaN;
}

/** Fewest one-step returns σ̂ is estimated from (a sample std needs two). */
export const RANDOM_WALK_MIN_RETURNS = 2;
