import { checkInteger, type NumericArray } from './check-arrays.ts';
import { mean, sampleStd } from './sample-std.ts';
import { selectTop } from './select-top.ts';
import { checkPanel, tradable } from './topk-backtest.ts';

/**
 * FinTSB's published code conventions (its train.py and basktesting.py), for comparing with the numbers in
 * the paper's tables, which that code printed. The default scorer follows the paper's text (§4.3, §5.2);
 * `--fintsb-compat code` uses these instead, under their own metric names (fintsb.code.*). Written from
 * the formulas the code computes, not from the code:
 *
 * - ICIR and RankICIR: mean / std with ddof 0 (numpy's ndarray.std), not the sample std.
 * - Cost: the day's mean return of the bought names times (1 − c)² (c the commission rate), instead of
 *   c × turnover. TopK pays it on the whole book every day; TopK-Drop on the n new names only:
 *   R_t = (mean(kept)·(k − n) + mean(new)·n·(1 − c)²) / k, the first day mean(top k)·(1 − c)².
 * - TopK-Drop's book: keep the k − n best of yesterday's names by today's score, then buy the n best
 *   names not kept (always n, even where yesterday's name would have stayed).
 * - MDD from NAV₁ = 1 + R_1 (the running maximum of the cumulative product), so a first-day loss is no
 *   drawdown; ARR, AVol and ASR as the paper, annualised by `periodsPerYear` (252 in the code).
 * - IR: the code's report prints the IC on its IR line; `ir` is that printed value (the caller passes the
 *   IC). Its portfolio function's own IR, mean/std·√252 of the returns against a zero benchmark, is
 *   `irComputed`.
 */
export interface FintsbCodeStatistics {
  arr: number;
  avol: number;
  /** ≤ 0, from NAV₁. */
  mdd: number;
  asr: number;
  /** As the code prints it on its IR line: the IC passed in. */
  ir: number;
  /** mean(R)/std(R)·√A against a zero benchmark (basktesting.py's information_ratio). */
  irComputed: number;
  dailyReturns: Float64Array;
}

/** mean / population std (ddof 0), as FinTSB's train.py computes ICIR; NaN for fewer than one value. */
export function icirDdof0(values: NumericArray): number {
  const n = values.length;
  if (n === 0) return Number.NaN;
  const m = mean(values);
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (values[i] - m) ** 2;
  return m / Math.sqrt(ss / n);
}

/** Mean of the returns of `names` on day t; 0 contributions when `names` is empty (see topkDropCode). */
function meanOf(returns: NumericArray, names: readonly number[]): number {
  if (names.length === 0) return 0;
  let s = 0;
  for (const i of names) s += returns[i];
  return s / names.length;
}

/** FinTSB code's TopK: each day the k best-scored tradable names, R_t = mean(r)·(1 − c)². */
export function topkCode(
  scores: readonly NumericArray[],
  returns: readonly NumericArray[],
  options: { k: number; fee: number },
): Float64Array {
  checkPanel('topkCode', scores, returns);
  checkInteger('topkCode', 'k', options.k, 1);
  const keep = (1 - options.fee) ** 2;
  return Float64Array.from(scores, (s, t) => {
    const top = selectTop(s, tradable(s, returns[t]), options.k);
    return top.length ? meanOf(returns[t], top) * keep : 0;
  });
}

/**
 * FinTSB code's TopK-Drop (see the module comment). Where the code's mean of an empty group would be NaN
 * and poison every later number (k − n = 0 kept names, a day with no new candidate), the group adds 0.
 */
export function topkDropCode(
  scores: readonly NumericArray[],
  returns: readonly NumericArray[],
  options: { k: number; drop: number; fee: number },
): Float64Array {
  checkPanel('topkDropCode', scores, returns);
  checkInteger('topkDropCode', 'k', options.k, 1);
  checkInteger('topkDropCode', 'drop', options.drop, 0);
  const { k, drop: n } = options;
  const keep = (1 - options.fee) ** 2;
  const out = new Float64Array(scores.length);
  let previous: number[] | null = null;
  for (let t = 0; t < scores.length; t++) {
    const s = scores[t];
    const r = returns[t];
    const open = tradable(s, r);
    if (previous === null) {
      const top = selectTop(s, open, k);
      out[t] = top.length ? meanOf(r, top) * keep : 0;
      previous = top;
      continue;
    }
    const openSet = new Set(open);
    const kept = selectTop(
      s,
      previous.filter((i) => openSet.has(i)),
      Math.max(0, k - n),
    );
    const keptSet = new Set(kept);
    const bought = selectTop(
      s,
      open.filter((i) => !keptSet.has(i)),
      n,
    );
    out[t] = (meanOf(r, kept) * (k - n) + meanOf(r, bought) * n * keep) / k;
    previous = [...kept, ...bought];
  }
  return out;
}

/** ARR, AVol, ASR as the paper; MDD from NAV₁; IR as printed (the IC given) and as computed. */
export function fintsbCodeStatistics(
  dailyReturns: Float64Array,
  options: { periodsPerYear: number; ic: number },
): FintsbCodeStatistics {
  const n = dailyReturns.length;
  const a = options.periodsPerYear;
  let nav = 1;
  let peak = Number.NEGATIVE_INFINITY;
  let mdd = 0;
  for (let t = 0; t < n; t++) {
    nav *= 1 + dailyReturns[t];
    if (nav > peak) peak = nav;
    mdd = Math.min(mdd, (nav - peak) / peak);
  }
  const arr = n ? nav ** (a / n) - 1 : Number.NaN;
  const avol = sampleStd(dailyReturns) * Math.sqrt(a);
  return {
    arr,
    avol,
    mdd: n ? mdd : Number.NaN,
    asr: arr / avol,
    ir: options.ic,
    irComputed: (mean(dailyReturns) / sampleStd(dailyReturns)) * Math.sqrt(a),
    dailyReturns,
  };
}
