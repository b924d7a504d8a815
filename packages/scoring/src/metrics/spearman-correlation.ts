import { averageRanks } from './average-ranks.ts';
import { checkArrays, type NumericArray } from './check-arrays.ts';
import { pearsonCorrelation } from './pearson-correlation.ts';

/**
 * Spearman rank correlation: Pearson correlation of average ranks (ties share their mean rank), i.e.
 * scipy.stats.spearmanr / pandas corr(method='spearman'). Without ties this equals FinTSB eq. (6)'s
 * 1 − 6Σd²/(t(t²−1)); with ties the 6Σd² shortcut is biased, so the rank-Pearson form is used.
 * NaN when n < 2 or either side is constant.
 */
export function spearmanCorrelation(x: NumericArray, y: NumericArray): number {
  checkArrays('spearmanCorrelation', { x, y });
  return pearsonCorrelation(averageRanks(x), averageRanks(y));
}
