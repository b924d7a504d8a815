import { InputError } from '@asof/schema';
import { checkArrays, type NumericArray } from './check-arrays.ts';
import { mean, sampleStd } from './sample-std.ts';

export interface BacktestStatistics {
  /** FinTSB eq. (8) ARR = (1 + TotalReturn)^{A/n} − 1. Higher is better. */
  arr: number;
  /** FinTSB eq. (9) AVol = √(A · Var(R_p)) (sample variance). Lower is better. */
  avol: number;
  /** FinTSB eq. (10) MDD = −max (p_peak − p_trough)/p_peak, ≤ 0. Higher (closer to 0) is better. */
  mdd: number;
  /** FinTSB eq. (11) ASR = ARR / AVol. Higher is better. */
  asr: number;
  /** FinTSB eq. (12) IR = mean(R_p − R_b)/std(R_p − R_b), not annualised as written. NaN without a benchmark. */
  ir: number;
  totalReturn: number;
  days: number;
}

/**
 * FinTSB §4.3.2 statistics of a daily portfolio return series R_p (net of fees). `periodsPerYear` A is
 * 252 in the seed. The MDD path starts at the initial capital (NAV_0 = 1), since a loss from the first day
 * is a fall in "portfolio value over the evaluation period".
 */
export function backtestStatistics(
  dailyReturns: NumericArray,
  options: { periodsPerYear?: number; benchmark?: NumericArray } = {},
): BacktestStatistics {
  const a = options.periodsPerYear ?? 252;
  const n = checkArrays('backtestStatistics', { dailyReturns });
  if (!(a > 0)) {
    throw new InputError('METRIC_BAD_PARAMETER', `backtestStatistics: periodsPerYear=${a}, expected > 0.`, {
      context: { periodsPerYear: a },
    });
  }
  let nav = 1;
  let peak = 1;
  let worst = 0;
  for (let t = 0; t < n; t++) {
    nav *= 1 + dailyReturns[t];
    if (nav > peak) peak = nav;
    const fall = (peak - nav) / peak;
    if (fall > worst) worst = fall;
  }
  const totalReturn = nav - 1;
  const arr = n === 0 ? Number.NaN : (1 + totalReturn) ** (a / n) - 1;
  const std = sampleStd(dailyReturns);
  const avol = Math.sqrt(a) * std;
  let ir = Number.NaN;
  const bench = options.benchmark;
  if (bench !== undefined) {
    checkArrays('backtestStatistics', { dailyReturns, benchmark: bench });
    const excess = new Float64Array(n);
    for (let t = 0; t < n; t++) excess[t] = dailyReturns[t] - bench[t];
    ir = mean(excess) / sampleStd(excess);
  }
  return { arr, avol, mdd: n === 0 ? Number.NaN : -worst, asr: arr / avol, ir, totalReturn, days: n };
}
