import { sampleStd } from './metrics/sample-std.ts';

/**
 * The random walk's volatility window, in one-step returns, per frequency: the most recent returns of the
 * history served as of the origin (Tycheon methodology: "no change, with volatility estimated from the
 * recent past"; the window itself is this project's choice, docs/decisions/0057). A year of steps for
 * daily and weekly series (BD 260, D 365, W 52: the split's default lookbacks), five years for monthly and
 * quarterly ones (M 60, Q 20), twenty years for annual ones (A 20): at least 20 returns at every frequency,
 * where a sample std's relative standard error is about 1/√(2n), 16% (3 returns, the quarterly lookback's,
 * give 41%). It is also the documented minimum: the window holds this many returns wherever the served
 * history has them, and all of them where it has fewer.
 */
export const RANDOM_WALK_SIGMA_RETURNS: Readonly<Record<string, number>> = {
  BD: 260,
  D: 365,
  W: 52,
  M: 60,
  Q: 20,
  A: 20,
};

/** The window of a frequency; an unknown one (a hand-made panel) takes every return it is given. */
export function randomWalkSigmaReturns(frequency: string | undefined): number {
  return RANDOM_WALK_SIGMA_RETURNS[frequency ?? ''] ?? Number.POSITIVE_INFINITY;
}

/** Fewest one-step returns σ̂ is estimated from (a sample std needs two); fewer: σ̂ unknown. */
export const RANDOM_WALK_MIN_RETURNS = 2;

/** The served history σ̂ reads at one origin: the tail (the origin's inputs) and what precedes it. */
export interface VolatilityHistory {
  /** The history tail, oldest first, ending with y_o. */
  tail: ArrayLike<number> | null;
  /** Each tail value's grid steps before the origin's own step; null: consecutive steps ending at it. */
  back: ArrayLike<number> | null;
  /** Served values before the tail, oldest first (OriginRow history_before); null: none. */
  before?: ArrayLike<number> | null;
  /** Their grid steps before the origin's step (needed with `before`, which is ignored without it). */
  beforeBack?: ArrayLike<number> | null;
}

export interface RandomWalkSigma {
  /** σ̂·√h, the standard deviation of the horizon-end return; NaN when unknown. */
  sigma: number;
  /** One-step returns σ̂ was estimated from (recorded per origin: TycheonFrame.rwSigmaReturns). */
  returns: number;
}

/**
 * The random walk is N(0, σ̂²h) in horizon-end Tycheon space; its point forecast y_o is that distribution's
 * median. This is the one place σ̂'s window is stated, and the same σ̂ feeds the random walk's Gaussian
 * CRPS, its intervals and its QLIKE variance:
 *
 * - **Window**: the last `maxReturns` one-step returns (RANDOM_WALK_SIGMA_RETURNS of the series'
 *   frequency) of the history served as of the origin: the tail, and before it the served history the
 *   split reader adds (OriginRow history_before). Nothing after the origin, and nothing the split did not
 *   serve. A return is taken between adjacent grid steps only: a step next to a hole (a stretch the split
 *   serves nothing of), a withdrawn or an unreleased value gives none.
 * - **σ̂**: their sample std (n − 1), log returns for a positive series, scaled changes otherwise
 *   (`toReturn(y0, y)`, the series' one-step return in its Tycheon space). At least RANDOM_WALK_MIN_RETURNS
 *   returns, else σ̂ is unknown (NaN) and the random walk is a point mass at 0.
 * - **h**: the steps from y_o to the horizon end, H + u (u = the publication lag: y_o is the value of step
 *   o − u), as the GARCH baseline counts them.
 */
export function randomWalkSigma(
  history: VolatilityHistory,
  horizon: number,
  toReturn: (y0: number, y: number) => number,
  maxReturns = Number.POSITIVE_INFINITY,
): RandomWalkSigma {
  const { tail, back } = history;
  const before = history.beforeBack ? (history.before ?? null) : null;
  const L = tail?.length ?? 0;
  const B = before?.length ?? 0;
  if (L === 0) return { sigma: Number.NaN, returns: 0 };
  // Position i of the joined sequence (before ++ tail): its value and grid steps before the origin.
  const valueAt = (i: number) => (i < B ? before![i] : tail![i - B]);
  const backAt = (i: number) => (i < B ? history.beforeBack![i] : back ? back[i - B] : L - 1 - (i - B));
  const steps: number[] = [];
  for (let i = B + L - 1; i >= 1 && steps.length < maxReturns; i--) {
    if (backAt(i - 1) - backAt(i) !== 1) continue;
    steps.push(toReturn(valueAt(i - 1), valueAt(i)));
  }
  // Oldest first, the order the sum runs in.
  steps.reverse();
  if (steps.length < RANDOM_WALK_MIN_RETURNS) return { sigma: Number.NaN, returns: steps.length };
  const u = backAt(B + L - 1);
  const sigma = sampleStd(steps) * Math.sqrt(horizon + u);
  return { sigma: sigma > 0 && Number.isFinite(sigma) ? sigma : Number.NaN, returns: steps.length };
}
