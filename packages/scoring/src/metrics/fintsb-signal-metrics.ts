import type { NumericArray } from './check-arrays.ts';
import { crossSectionalCorrelations } from './information-coefficient.ts';
import { pearsonCorrelation } from './pearson-correlation.ts';
import { mean, sampleStd } from './sample-std.ts';
import { spearmanCorrelation } from './spearman-correlation.ts';

export interface FintsbSignalMetrics {
  /** FinTSB eq. (4): mean over days of the cross-sectional Pearson correlation of Y and r. Higher is better. */
  ic: number;
  /** FinTSB eq. (5): mean(IC)/std(IC) over days (sample std, not annualised). Higher is better. */
  icir: number;
  /** FinTSB eq. (6): mean over days of the cross-sectional Spearman correlation. Higher is better. */
  rankIc: number;
  /** FinTSB eq. (7): mean(RankIC)/std(RankIC). Higher is better. */
  rankIcir: number;
  /** Days whose IC (resp. RankIC) is defined (≥ 2 assets, neither side constant); others are skipped. */
  days: number;
  rankDays: number;
  icSeries: Float64Array;
  rankIcSeries: Float64Array;
}

/**
 * FinTSB §4.3.1. `predicted[t]` holds the scores Y of every asset on day t, `realized[t]` the subsequent true
 * returns r, aligned by asset (NaN/absent assets are dropped per day).
 * Reading of the seed: eq. (4) averages, over N cross-sections i, a Pearson correlation over the t assets of
 * each (the text calls IC "Spearman", but the formula is Pearson and RankIC is the Spearman one, as in qlib,
 * which FinTSB's pipeline follows). Eq. (6)'s 1 − 6Σd²/(t(t²−1)) is the no-ties form of Spearman; ties are
 * ranked by average rank (rank-Pearson) so tied scores are not biased.
 */
export function fintsbSignalMetrics(
  predicted: readonly NumericArray[],
  realized: readonly NumericArray[],
): FintsbSignalMetrics {
  const icSeries = crossSectionalCorrelations('fintsbSignalMetrics', predicted, realized, pearsonCorrelation);
  const rankIcSeries = crossSectionalCorrelations(
    'fintsbSignalMetrics',
    predicted,
    realized,
    spearmanCorrelation,
  );
  const ics = Float64Array.from(icSeries).filter(Number.isFinite);
  const rankIcs = Float64Array.from(rankIcSeries).filter(Number.isFinite);
  const ic = mean(ics);
  const rankIc = mean(rankIcs);
  return {
    ic,
    icir: ic / sampleStd(ics),
    rankIc,
    rankIcir: rankIc / sampleStd(rankIcs),
    days: ics.length,
    rankDays: rankIcs.length,
    icSeries,
    rankIcSeries,
  };
}
