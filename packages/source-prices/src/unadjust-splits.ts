import { InputError } from '@asof/schema';
import type { DividendEvent, PriceBar, SplitEvent } from './price-types.ts';

/**
 * Merges split lists (from the file's events, the pipeline's known-split list, a sidecar) into one list
 * sorted by ex-date. The same ex-date twice must agree on the ratio, else it is an error: a wrong ratio
 * would silently scale every earlier price.
 */
export function mergeSplits(...lists: SplitEvent[][]): SplitEvent[] {
  const byDate = new Map<string, number>();
  for (const list of lists) {
    for (const s of list) {
      if (!(s.ratio > 0) || !Number.isFinite(s.ratio)) {
        throw new InputError(
          'BAD_SPLIT',
          `split on ${s.exDate} has ratio ${s.ratio}; expected a positive number (4 for 4:1)`,
          {
            context: { exDate: s.exDate, ratio: s.ratio },
          },
        );
      }
      const prev = byDate.get(s.exDate);
      if (prev !== undefined && Math.abs(prev - s.ratio) > 1e-9 * prev) {
        throw new InputError(
          'CONFLICTING_SPLITS',
          `two split lists disagree on ${s.exDate}: ratio ${prev} vs ${s.ratio}; fix the pipeline's known-split list`,
          { context: { exDate: s.exDate, ratios: [prev, s.ratio] } },
        );
      }
      byDate.set(s.exDate, s.ratio);
    }
  }
  return [...byDate]
    .map(([exDate, ratio]) => ({ exDate, ratio }))
    .sort((a, b) => (a.exDate < b.exDate ? -1 : a.exDate > b.exDate ? 1 : 0));
}

/**
 * A function giving, for a date, the product of the ratios of the splits with ex-date strictly after that
 * date and on or before `downloadDate`: the factor by which a split-adjusted vendor value of that date is
 * smaller than the value as traded. (A bar on the ex-date itself already trades post-split.)
 */
export function splitFactorAfter(splits: SplitEvent[], downloadDate: string): (date: string) => number {
  const relevant = splits
    .filter((s) => s.exDate <= downloadDate)
    .sort((a, b) => (a.exDate < b.exDate ? -1 : 1));
  // suffix[k] = product of ratios of relevant[k..]
  const suffix = new Array<number>(relevant.length + 1);
  suffix[relevant.length] = 1;
  for (let k = relevant.length - 1; k >= 0; k--) suffix[k] = suffix[k + 1] * relevant[k].ratio;
  return (date: string): number => {
    // first split with exDate > date
    let lo = 0;
    let hi = relevant.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (relevant[mid].exDate > date) hi = mid;
      else lo = mid + 1;
    }
    return suffix[lo];
  };
}

export interface UnadjustedPrices {
  bars: PriceBar[];
  dividends: DividendEvent[];
}

/**
 * Recovers as-traded OHLCV from split-adjusted vendor bars: prices × (splits after the bar up to the
 * download), volume ÷ the same factor (rounded to whole shares). Dividends, which Yahoo adjusts the same
 * way, are scaled back too. `splits` must list every split between the first bar and `downloadDate`
 * (the file's own events cover only its requested range; the pipeline supplies the rest).
 */
export function unadjustSplits(
  bars: PriceBar[],
  splits: SplitEvent[],
  downloadDate: string,
  dividends: DividendEvent[] = [],
): UnadjustedPrices {
  const factorAfter = splitFactorAfter(splits, downloadDate);
  const scale = (v: number | null, f: number): number | null => (v === null ? null : v * f);
  const out = bars.map((b) => {
    const f = factorAfter(b.date);
    if (f === 1) return b;
    return {
      ...b,
      open: scale(b.open, f),
      high: scale(b.high, f),
      low: scale(b.low, f),
      close: scale(b.close, f),
      volume: b.volume === null ? null : Math.round(b.volume / f),
    };
  });
  const divs = dividends.map((d) => ({ exDate: d.exDate, amount: d.amount * factorAfter(d.exDate) }));
  return { bars: out, dividends: divs };
}
