import type { Micros } from '@asof/schema';
import { actionAvailableAt, type EntitySplit, splitsAdjustedIn } from './entity-splits.ts';
import type { PriceDownload } from './map-prices-to-atomic.ts';
import { splitFactorAfter } from './unadjust-splits.ts';

/** Why a download's instant was moved later: its bars are adjusted for a split after its assumed instant. */
export interface DownloadAfterSplits {
  /** Index into the downloads given. */
  index: number;
  /** The new (earliest possible) download instant: the last adjusted split's ex-date open. */
  downloadedAt: Micros;
  /** The latest split the bars are adjusted for. */
  split: EntitySplit;
  /** The downloads whose as-traded closes the bars were matched against, and on how many dates. */
  references: string[];
  dates: number;
}

/** Two candidate adjustments closer than this (relative) cannot be told apart by the bars. */
const TOLERANCE = 0.02;

/**
 * A download whose instant is only a lower bound (no recorded date: Yahoo's regularMarketTime or its last
 * bar) may have been made after later splits, and Yahoo's bars are then adjusted for them. The bars tell:
 * on the dates it shares with downloads whose adjustment is known (a recorded instant, or no split after
 * it), its closes match their as-traded closes only once the splits it was adjusted for are undone. Of the
 * splits after its lower bound (applied in ex-date order, since a download is one instant), the number whose
 * product matches the median ratio within 2% is taken; the download is then dated at that split's ex-date
 * open (the earliest it can have been made). No shared dates, or no candidate within 2%: nothing moves.
 */
export function inferDownloadsAfterSplits(
  downloads: readonly PriceDownload[],
  lowerBound: readonly boolean[],
  splits: readonly EntitySplit[],
  timeZone: string,
  allDays = false,
): DownloadAfterSplits[] {
  const pending = (i: number) =>
    splits.filter((s) => actionAvailableAt(s.exDate, timeZone, allDays) > downloads[i].downloadedAt);
  const asTraded = (i: number): Map<string, number> => {
    const d = downloads[i];
    const applied = splitsAdjustedIn(splits, d.downloadedAt, timeZone, allDays);
    const factor = d.parsed.adjustment === 'split' ? splitFactorAfter(applied, '9999-12-31') : () => 1;
    const out = new Map<string, number>();
    for (const b of d.parsed.bars)
      if (b.close !== null && b.close > 0) out.set(b.date, b.close * factor(b.date));
    return out;
  };
  const known = downloads
    .map((_, i) => i)
    .filter((i) => !lowerBound[i] || pending(i).length === 0)
    .map((i) => ({ where: downloads[i].where ?? `download ${i + 1}`, closes: asTraded(i) }));
  const out: DownloadAfterSplits[] = [];
  for (let i = 0; i < downloads.length; i++) {
    const d = downloads[i];
    const candidates = pending(i);
    if (!lowerBound[i] || d.parsed.adjustment !== 'split' || candidates.length === 0) continue;
    const base = asTraded(i);
    const ratios: number[] = [];
    const references = new Set<string>();
    for (const k of known) {
      for (const [date, close] of base) {
        const ref = k.closes.get(date);
        if (ref === undefined) continue;
        ratios.push(ref / close);
        references.add(k.where);
      }
    }
    if (ratios.length === 0) continue;
    ratios.sort((a, b) => a - b);
    const r = ratios[Math.floor(ratios.length / 2)];
    let best = -1;
    let bestErr = Number.POSITIVE_INFINITY;
    let product = 1;
    for (let k = 0; k <= candidates.length; k++) {
      if (k > 0) product *= candidates[k - 1].ratio;
      const err = Math.abs(Math.log(r / product));
      if (err < bestErr) {
        bestErr = err;
        best = k;
      }
    }
    if (best <= 0 || bestErr > Math.log(1 + TOLERANCE)) continue;
    const split = candidates[best - 1];
    out.push({
      index: i,
      downloadedAt: Math.max(d.downloadedAt, actionAvailableAt(split.exDate, timeZone, allDays)),
      split,
      references: [...references].sort(),
      dates: ratios.length,
    });
  }
  return out;
}
