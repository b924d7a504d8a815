import { InputError } from '@asof/schema';
import { checkInteger, type NumericArray } from './check-arrays.ts';
import { mean, sampleStd } from './sample-std.ts';
import { selectTop } from './select-top.ts';

export interface PortfolioMetricsOptions {
  /** Holding horizon h in frequency steps (e.g. BD 1m = 22): rebalance every h steps, h offsets. */
  holdingSteps: number;
  /** A_h (FinVerse eq. 14): 52, 12, 4, 2, 1 for 1w, 1m, 1q, 1h, 1y holding horizons. */
  periodsPerYear: number;
  /** Fraction of S_o held; default 0.1 (top 10%). Held count = max(1, ceil(fraction · |S_o|)). */
  topFraction?: number;
}

export interface PortfolioOffsetResult {
  offset: number;
  /** K_s, the number of valid rebalance origins (non-empty S_o) on this offset path. */
  periods: number;
  /** R_{o_{s,j}} in chronological order. */
  returns: Float64Array;
  annualReturn: number;
  annualVolatility: number;
  sharpe: number;
  maxDrawdown: number;
}

export interface PortfolioMetricsResult {
  /** Eq. (15), averaged over offsets (eq. 13). Higher is better. */
  annualReturn: number;
  /** Eq. (15), averaged over offsets. Lower is better. */
  annualVolatility: number;
  /** Eq. (16), averaged over offsets. Higher is better. */
  sharpe: number;
  /** Eq. (16), ≤ 0, averaged over offsets. Higher (closer to 0) is better. */
  maxDrawdown: number;
  offsets: PortfolioOffsetResult[];
}

/**
 * FinVerse §3.2.3 realised portfolio backtest: equal-weight long-only top-10% by the horizon-h predicted
 * signal, rebalanced every h steps, run for every offset s ∈ A_h = {0..h−1} and averaged (eq. 13).
 *   R_o = (1/|P_o|) Σ_{i∈P_o} r_{i,o}^(h,h)                                        (11)
 *   NAV_{s,k} = Π_{j≤k} (1 + R_{o_{s,j}})                                            (12)
 *   AnnualReturn_s = (Π_{j=1..K_s} (1 + R_{o_{s,j}}))^{A_h/K_s} − 1,  AnnualVol_s = Std(R)·√A_h   (15)
 *   Sharpe_s = E[R]/Std(R)·√A_h,  MDD_s = min_k (NAV_{s,k} / max_{ℓ≤k} NAV_{s,ℓ} − 1)             (16)
 * Inputs: `predicted[t][i]` = r̂_{i,t}^(h,h) and `realized[t][i]` = r_{i,t}^(h,h) for consecutive steps t of
 * the common calendar, aligned by asset; an asset is in S_t when both are finite.
 * Choices where the seed is silent: Std is the sample std (n − 1), so an offset with K_s = 1 has no
 * volatility/Sharpe; an offset's undefined metric is left out of that metric's average (offsets with no
 * valid origin are left out entirely); NAV_0 = 1 is not part of the running max in MDD (ℓ starts at 1, as
 * written), so a loss in the very first period is not a drawdown; ties at the selection cut go to the lower
 * asset index.
 */
export function portfolioMetrics(
  predicted: readonly NumericArray[],
  realized: readonly NumericArray[],
  options: PortfolioMetricsOptions,
): PortfolioMetricsResult {
  const { holdingSteps: h, periodsPerYear: a } = options;
  const fraction = options.topFraction ?? 0.1;
  checkInteger('portfolioMetrics', 'holdingSteps', h, 1);
  if (!(a > 0) || !(fraction > 0 && fraction <= 1)) {
    throw new InputError(
      'METRIC_BAD_PARAMETER',
      `portfolioMetrics: periodsPerYear=${a} must be > 0 (52/12/4/2/1) and topFraction=${fraction} in (0, 1].`,
      { context: { periodsPerYear: a, topFraction: fraction } },
    );
  }
  if (predicted.length !== realized.length) {
    throw new InputError(
      'METRIC_LENGTH_MISMATCH',
      `portfolioMetrics: predicted has ${predicted.length} steps but realized has ${realized.length}.`,
      { context: { actual: realized.length, expected: predicted.length } },
    );
  }
  const steps = predicted.length;
  // R_t for every step that can be a rebalance origin; NaN when S_t is empty.
  const stepReturn = new Float64Array(steps);
  for (let t = 0; t < steps; t++) {
    const p = predicted[t];
    const r = realized[t];
    if (p.length !== r.length) {
      throw new InputError(
        'METRIC_LENGTH_MISMATCH',
        `portfolioMetrics: step ${t} has ${p.length} predicted but ${r.length} realized values; align by asset.`,
        { context: { step: t, actual: r.length, expected: p.length } },
      );
    }
    const eligible: number[] = [];
    for (let i = 0; i < p.length; i++) if (Number.isFinite(p[i]) && Number.isFinite(r[i])) eligible.push(i);
    if (eligible.length === 0) {
      stepReturn[t] = Number.NaN;
      continue;
    }
    const held = selectTop(p, eligible, Math.max(1, Math.ceil(fraction * eligible.length)));
    let sum = 0;
    for (const i of held) sum += r[i];
    stepReturn[t] = sum / held.length;
  }

  const offsets: PortfolioOffsetResult[] = [];
  for (let s = 0; s < h; s++) {
    const rs: number[] = [];
    for (let t = s; t < steps; t += h) if (!Number.isNaN(stepReturn[t])) rs.push(stepReturn[t]);
    if (rs.length === 0) continue;
    offsets.push({ offset: s, periods: rs.length, ...pathStatistics(Float64Array.from(rs), a) });
  }
  return {
    annualReturn: meanFinite(offsets.map((o) => o.annualReturn)),
    annualVolatility: meanFinite(offsets.map((o) => o.annualVolatility)),
    sharpe: meanFinite(offsets.map((o) => o.sharpe)),
    maxDrawdown: meanFinite(offsets.map((o) => o.maxDrawdown)),
    offsets,
  };
}

function pathStatistics(returns: Float64Array, a: number): Omit<PortfolioOffsetResult, 'offset' | 'periods'> {
  const k = returns.length;
  let nav = 1;
  let peak = Number.NEGATIVE_INFINITY;
  let mdd = 0;
  for (let j = 0; j < k; j++) {
    nav *= 1 + returns[j];
    if (nav > peak) peak = nav;
    const dd = nav / peak - 1;
    if (dd < mdd) mdd = dd;
  }
  const std = sampleStd(returns);
  return {
    returns,
    annualReturn: nav ** (a / k) - 1,
    annualVolatility: std * Math.sqrt(a),
    sharpe: (mean(returns) / std) * Math.sqrt(a),
    maxDrawdown: mdd,
  };
}

function meanFinite(values: number[]): number {
  let s = 0;
  let n = 0;
  for (const v of values) {
    if (Number.isFinite(v)) {
      s += v;
      n++;
    }
  }
  return n === 0 ? Number.NaN : s / n;
}
