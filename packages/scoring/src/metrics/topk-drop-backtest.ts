import { type BacktestStatistics, backtestStatistics } from './backtest-statistics.ts';
import { checkInteger, type NumericArray } from './check-arrays.ts';
import { selectTop } from './select-top.ts';
import { checkPanel, simulateBook, tradable } from './topk-backtest.ts';

export interface TopkDropBacktestOptions {
  /** m, the portfolio size (FinTSB: 30). */
  k: number;
  /** n, the most holdings replaced per day (FinTSB: 5), so |P_t ∩ P_{t−1}| ≥ m − n. */
  drop: number;
  /** Proportional cost per unit of traded weight; default 0.001 (FinTSB 0.1%). */
  fee?: number;
  periodsPerYear?: number;
  benchmark?: NumericArray;
}

export interface TopkDropBacktestResult extends BacktestStatistics {
  dailyReturns: Float64Array;
  turnover: Float64Array;
  holdings: number[][];
}

/**
 * FinTSB §5.2 TopK-Drop (qlib TopkDropoutStrategy, sell 'bottom', buy 'top'): each day, with current
 * holdings L (ranked by today's score) and today's best non-held candidates C (the top n + m − |L|),
 * sell the holdings that fall in the bottom n of L ∪ C ranked by score, then buy the best candidates to
 * refill to m. So at most n holdings are replaced and |P_t ∩ P_{t−1}| ≥ m − n. A holding that is not
 * tradable today (no finite score or return) is sold in addition; this is the only way more than n names
 * leave the book. Fees and statistics as in `topkBacktest`.
 */
export function topkDropBacktest(
  scores: readonly NumericArray[],
  returns: readonly NumericArray[],
  options: TopkDropBacktestOptions,
): TopkDropBacktestResult {
  checkPanel('topkDropBacktest', scores, returns);
  checkInteger('topkDropBacktest', 'k', options.k, 1);
  checkInteger('topkDropBacktest', 'drop', options.drop, 0);
  const { k, drop } = options;
  const fee = options.fee ?? 0.001;
  const book = simulateBook(
    returns,
    (t, previous) => {
      const score = scores[t];
      const universe = tradable(score, returns[t]);
      const open = new Set(universe);
      // Untradable holdings are forced out.
      const last = selectTop(
        score,
        previous.filter((i) => open.has(i)),
        previous.length,
      );
      const lastSet = new Set(last);
      const candidates = selectTop(
        score,
        universe.filter((i) => !lastSet.has(i)),
        drop + k - last.length,
      );
      const combined = selectTop(score, [...last, ...candidates], last.length + candidates.length);
      const bottom = new Set(drop === 0 ? [] : combined.slice(-drop));
      const sold = new Set(last.filter((i) => bottom.has(i)));
      const kept = last.filter((i) => !sold.has(i));
      const bought = candidates.slice(0, Math.max(0, k - kept.length));
      return selectTop(score, [...kept, ...bought], kept.length + bought.length);
    },
    fee,
  );
  return { ...backtestStatistics(book.dailyReturns, options), ...book };
}
