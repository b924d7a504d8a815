import { InputError } from '@asof/schema';
import { type BacktestStatistics, backtestStatistics } from './backtest-statistics.ts';
import { checkInteger, type NumericArray } from './check-arrays.ts';
import { selectTop } from './select-top.ts';

export interface TopkBacktestOptions {
  /** m, the number of stocks held (FinTSB: 30 of 300, ≈ 10% of the universe). */
  k: number;
  /** Proportional cost per unit of traded weight (buys and sells); FinTSB: 0.1% → 0.001 (the default). */
  fee?: number;
  /** Annualisation factor A; 252 trading days in FinTSB. */
  periodsPerYear?: number;
  /** R_b per day (market index), for IR. */
  benchmark?: NumericArray;
}

export interface TopkBacktestResult extends BacktestStatistics {
  /** Net daily portfolio returns R_p. */
  dailyReturns: Float64Array;
  /** Σ_i |w_{i,t} − w_{i,t−1}| per day (2 = complete replacement; the first day's purchase counts 1). */
  turnover: Float64Array;
  /** Holdings after each day's trades, best score first. */
  holdings: number[][];
}

/** Validates the day-by-asset inputs shared by both FinTSB backtests. */
export function checkPanel(
  metric: string,
  scores: readonly NumericArray[],
  returns: readonly NumericArray[],
): void {
  if (scores.length !== returns.length) {
    throw new InputError(
      'METRIC_LENGTH_MISMATCH',
      `${metric}: scores has ${scores.length} days but returns has ${returns.length}.`,
      { context: { metric, actual: returns.length, expected: scores.length } },
    );
  }
  for (let t = 0; t < scores.length; t++) {
    if (scores[t].length !== returns[t].length) {
      throw new InputError(
        'METRIC_LENGTH_MISMATCH',
        `${metric}: day ${t} has ${scores[t].length} scores but ${returns[t].length} returns; align by asset ` +
          '(NaN for an asset not tradable that day).',
        { context: { metric, day: t, actual: returns[t].length, expected: scores[t].length } },
      );
    }
  }
}

/** Assets tradable on a day: finite score and finite realised return. */
export function tradable(scores: NumericArray, returns: NumericArray): number[] {
  const out: number[] = [];
  for (let i = 0; i < scores.length; i++)
    if (Number.isFinite(scores[i]) && Number.isFinite(returns[i])) out.push(i);
  return out;
}

/**
 * Runs an equal-weight long-only book over days, charging `fee` × turnover (target equal weights; price
 * drift between rebalances is ignored) and returning R_p,t = mean_{i∈P_t} r_{i,t} − fee · Σ|Δw|.
 */
export function simulateBook(
  returns: readonly NumericArray[],
  choose: (day: number, previous: readonly number[]) => number[],
  fee: number,
): { dailyReturns: Float64Array; turnover: Float64Array; holdings: number[][] } {
  const days = returns.length;
  const dailyReturns = new Float64Array(days);
  const turnover = new Float64Array(days);
  const holdings: number[][] = [];
  let previous: number[] = [];
  for (let t = 0; t < days; t++) {
    const held = choose(t, previous);
    const wOld = previous.length === 0 ? 0 : 1 / previous.length;
    const wNew = held.length === 0 ? 0 : 1 / held.length;
    const oldSet = new Set(previous);
    const newSet = new Set(held);
    let traded = 0;
    for (const i of previous) traded += newSet.has(i) ? Math.abs(wNew - wOld) : wOld;
    for (const i of held) if (!oldSet.has(i)) traded += wNew;
    let gross = 0;
    for (const i of held) gross += returns[t][i];
    dailyReturns[t] = (held.length === 0 ? 0 : gross / held.length) - fee * traded;
    turnover[t] = traded;
    holdings.push(held);
    previous = held;
  }
  return { dailyReturns, turnover, holdings };
}

/**
 * FinTSB §5.2 TopK strategy: each day t hold the m assets with the highest predicted return Y, equal weight,
 * fully rebalanced daily. `scores[t][i]` is Y for asset i decided at day t, `returns[t][i]` the realised
 * return the position earns over the following holding day. Statistics as FinTSB §4.3.2 (see
 * `backtestStatistics`). Ties in score go to the lower asset index.
 */
export function topkBacktest(
  scores: readonly NumericArray[],
  returns: readonly NumericArray[],
  options: TopkBacktestOptions,
): TopkBacktestResult {
  checkPanel('topkBacktest', scores, returns);
  checkInteger('topkBacktest', 'k', options.k, 1);
  const fee = options.fee ?? 0.001;
  const book = simulateBook(
    returns,
    (t) => selectTop(scores[t], tradable(scores[t], returns[t]), options.k),
    fee,
  );
  return {
    ...backtestStatistics(book.dailyReturns, options),
    ...book,
  };
}
