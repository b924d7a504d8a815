import type { DividendEvent, SplitEvent } from './price-types.ts';

export interface TotalReturnPoint {
  date: string;
  value: number;
}

export interface TotalReturnOptions {
  /** Index value at the first bar with a close (default 100). */
  base?: number;
}

/**
 * A total-return index from AS-TRADED closes and the corporate actions effective at each bar, so every
 * value uses only what was known at its close (no back-adjustment, no future action).
 *
 * From bar t-1 to bar t, with S = product of split ratios ex in (t-1, t] and each dividend d_i ex in
 * (t-1, t] counted per share held on its ex-date (s_i = splits ex in (t-1, ex_i]):
 *   TR_t = TR_{t-1} × (S × close_t + Σ s_i × d_i) / close_{t-1}
 * i.e. dividends are reinvested at the ex-date close. Dividend amounts must be as paid (not
 * split-adjusted). Bars without a positive close are skipped; their actions roll into the next step.
 */
export function totalReturnIndex(
  bars: { date: string; close: number | null }[],
  splits: SplitEvent[],
  dividends: DividendEvent[],
  options: TotalReturnOptions = {},
): TotalReturnPoint[] {
  const sortedSplits = [...splits].sort((a, b) => (a.exDate < b.exDate ? -1 : 1));
  const sortedDivs = [...dividends].sort((a, b) => (a.exDate < b.exDate ? -1 : 1));
  const out: TotalReturnPoint[] = [];
  let prevDate: string | null = null;
  let prevClose = 0;
  let value = options.base ?? 100;
  let si = 0;
  let di = 0;
  for (const bar of bars) {
    if (bar.close === null || !(bar.close > 0)) continue;
    if (prevDate === null) {
      // Actions before the first usable bar do not affect the index.
      while (si < sortedSplits.length && sortedSplits[si].exDate <= bar.date) si++;
      while (di < sortedDivs.length && sortedDivs[di].exDate <= bar.date) di++;
      prevDate = bar.date;
      prevClose = bar.close;
      out.push({ date: bar.date, value });
      continue;
    }
    // Walk the actions in (prevDate, bar.date] in ex-date order; a split and a dividend on the same
    // ex-date: the dividend is quoted per post-split share.
    let shares = 1;
    let cash = 0;
    while (
      (si < sortedSplits.length && sortedSplits[si].exDate <= bar.date) ||
      (di < sortedDivs.length && sortedDivs[di].exDate <= bar.date)
    ) {
      const nextSplit =
        si < sortedSplits.length && sortedSplits[si].exDate <= bar.date ? sortedSplits[si] : null;
      const nextDiv = di < sortedDivs.length && sortedDivs[di].exDate <= bar.date ? sortedDivs[di] : null;
      if (nextSplit && (!nextDiv || nextSplit.exDate <= nextDiv.exDate)) {
        shares *= nextSplit.ratio;
        si++;
      } else if (nextDiv) {
        cash += shares * nextDiv.amount;
        di++;
      }
    }
    value *= (shares * bar.close + cash) / prevClose;
    out.push({ date: bar.date, value });
    prevDate = bar.date;
    prevClose = bar.close;
  }
  return out;
}
