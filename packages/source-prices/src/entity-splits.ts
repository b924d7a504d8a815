import { isoDayNumber, localDateOfMicros, zonedMicros } from '@asof/calendar';
import { type BuildWarning, InputError, type Micros } from '@asof/schema';
import type { PriceDownload } from './map-prices-to-atomic.ts';
import type { SplitEvent } from './price-types.ts';

/** A split of the instrument, from whichever download (or the pipeline) lists it. */
export interface EntitySplit extends SplitEvent {
  /** The first file (by download instant) listing it, or the pipeline's list when that gives the ratio. */
  listedBy: string;
  /** `source_ref` of the corporate action: that file's sha256, or `pipeline:known_splits`. */
  sourceRef: string;
}

export interface EntitySplits {
  /** Sorted by ex-date. */
  splits: EntitySplit[];
  /** A file's ratio the pipeline's list replaced (the pipeline wins over what the files say). */
  overridden: { exDate: string; where: string; fileRatio: number; ratio: number; from: string }[];
  /** True when any download carries the pipeline's list (a sidecar's or options.knownSplits): it is complete. */
  fromPipeline: boolean;
}

/** When a corporate action is public at the latest: the ex-date's session open (00:00 for 24/7 markets). */
export function actionAvailableAt(exDate: string, timeZone: string, allDays = false): Micros {
  return zonedMicros(exDate, allDays ? '00:00' : '09:30', timeZone);
}

const PIPELINE_REF = 'pipeline:known_splits';
const sameRatio = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(a, b);
const whereOf = (d: PriceDownload) => d.where ?? 'a download';

function checkRatio(s: SplitEvent, where: string): void {
  if (s.ratio > 0 && Number.isFinite(s.ratio)) return;
  throw new InputError(
    'BAD_SPLIT',
    `${where}: split on ${s.exDate} has ratio ${s.ratio}; expected a positive number (4 for 4:1)`,
    { context: { where, exDate: s.exDate, ratio: s.ratio } },
  );
}

/**
 * One split list for an instrument from all its downloads: splits are facts about the entity, so what any
 * file lists applies to every file (whatever its own date window), each split public at its ex-date open.
 * The pipeline's list (`knownSplits` of any download: a sidecar's, or options.knownSplits) wins over the
 * files; two files giving different ratios for one ex-date, with no pipeline ratio to settle it, are an error
 * naming both, as are two pipeline lists that disagree. `downloads` must be sorted by download instant.
 */
export function collectEntitySplits(symbol: string, downloads: readonly PriceDownload[]): EntitySplits {
  const pipeline = new Map<string, { ratio: number; from: string }>();
  const files = new Map<string, { ratio: number; where: string; ref: string }>();
  const disputes = new Map<string, { where: string; ratio: number }>();
  for (const d of downloads) {
    const from = d.knownSplitsFrom ?? `the pipeline's known-split list (${whereOf(d)})`;
    for (const s of d.knownSplits ?? []) {
      checkRatio(s, from);
      const prev = pipeline.get(s.exDate);
      if (prev !== undefined && !sameRatio(prev.ratio, s.ratio)) {
        throw new InputError(
          'CONFLICTING_SPLITS',
          `${symbol} split on ${s.exDate}: ${prev.from} gives ratio ${prev.ratio} but ${from} gives ratio ${s.ratio}; fix one of them`,
          {
            context: { symbol, exDate: s.exDate, ratios: [prev.ratio, s.ratio], sources: [prev.from, from] },
          },
        );
      }
      if (prev === undefined) pipeline.set(s.exDate, { ratio: s.ratio, from });
    }
    for (const s of d.parsed.splits) {
      checkRatio(s, whereOf(d));
      const prev = files.get(s.exDate);
      if (prev === undefined) files.set(s.exDate, { ratio: s.ratio, where: whereOf(d), ref: d.sourceRef });
      else if (!sameRatio(prev.ratio, s.ratio) && !disputes.has(s.exDate))
        disputes.set(s.exDate, { where: whereOf(d), ratio: s.ratio });
    }
  }
  for (const [exDate, other] of disputes) {
    if (pipeline.has(exDate)) continue;
    const first = files.get(exDate)!;
    throw new InputError(
      'CONFLICTING_SPLITS',
      `${symbol} split on ${exDate}: ${first.where} gives ratio ${first.ratio} but ${other.where} gives ratio ${other.ratio}; remove the wrong file, or give the ratio in a .meta.json "splits" list or options.knownSplits (it wins over the files)`,
      {
        context: {
          symbol,
          exDate,
          ratios: [first.ratio, other.ratio],
          files: [first.where, other.where],
        },
      },
    );
  }
  const splits: EntitySplit[] = [];
  const overridden: EntitySplits['overridden'] = [];
  for (const exDate of new Set([...pipeline.keys(), ...files.keys()])) {
    const p = pipeline.get(exDate);
    const f = files.get(exDate);
    if (p !== undefined) {
      for (const d of downloads)
        for (const s of d.parsed.splits)
          if (s.exDate === exDate && !sameRatio(s.ratio, p.ratio))
            overridden.push({ exDate, where: whereOf(d), fileRatio: s.ratio, ratio: p.ratio, from: p.from });
      const agrees = f !== undefined && sameRatio(f.ratio, p.ratio) && !disputes.has(exDate);
      splits.push({
        exDate,
        ratio: p.ratio,
        listedBy: agrees ? f.where : p.from,
        sourceRef: agrees ? f.ref : PIPELINE_REF,
      });
    } else if (f !== undefined) {
      splits.push({ exDate, ratio: f.ratio, listedBy: f.where, sourceRef: f.ref });
    }
  }
  splits.sort((a, b) => (a.exDate < b.exDate ? -1 : a.exDate > b.exDate ? 1 : 0));
  return { splits, overridden, fromPipeline: downloads.some((d) => d.knownSplits !== undefined) };
}

/** The splits a download is adjusted for: those public (at their ex-date open) by its download instant. */
export function splitsAdjustedIn(
  splits: readonly EntitySplit[],
  downloadedAt: Micros,
  timeZone: string,
  allDays = false,
): EntitySplit[] {
  return splits.filter((s) => actionAvailableAt(s.exDate, timeZone, allDays) <= downloadedAt);
}

function barRange(d: PriceDownload): { first: string; last: string } | null {
  let first: string | undefined;
  let last: string | undefined;
  for (const b of d.parsed.bars) {
    if (first === undefined || b.date < first) first = b.date;
    if (last === undefined || b.date > last) last = b.date;
  }
  return first === undefined || last === undefined ? null : { first, last };
}

/** The dates a download lists every split of: its bars' range (or its events' for an events-only file). */
function listingWindow(d: PriceDownload): { first: string; last: string } | null {
  if (!d.parsed.splitsListed) return null;
  const bars = barRange(d);
  if (bars !== null) return bars;
  const dates = d.parsed.splits.map((s) => s.exDate).sort();
  return dates.length === 0 ? null : { first: dates[0], last: dates[dates.length - 1] };
}

/** Days after the last bar within which a download counts as "right after the range" (no gap to cover). */
const GAP_DAYS = 7;

/**
 * Warnings for splits no source can tell, per instrument. None when the pipeline gave a list (it is
 * complete). Else, for a split-adjusted download:
 * - PRICES_SPLITS_UNVERIFIED: no file of the instrument lists the splits of any part of its own range;
 * - PRICES_SPLITS_AFTER_RANGE_UNKNOWN: between its last bar and its download no file of the instrument lists
 *   splits (a file whose window reaches into that gap covers it up to that window's end; the rest is the
 *   gap left, reported once for every download it leaves uncovered, on the file whose range ends where it
 *   starts when there is one). Interior stretches between two files' windows are not reported.
 */
export function splitCoverageWarnings(
  symbol: string,
  downloads: readonly PriceDownload[],
  timeZone: string,
): BuildWarning[] {
  if (downloads.some((d) => d.knownSplits !== undefined)) return [];
  const windows = downloads.map(listingWindow).filter((w) => w !== null);
  const out: BuildWarning[] = [];
  const tails = new Map<string, { start: string; end: string; wheres: string[]; owner: string | null }>();
  for (const d of downloads) {
    const p = d.parsed;
    const range = barRange(d);
    if (p.adjustment !== 'split' || range === null) continue;
    const downloadDate = localDateOfMicros(d.downloadedAt, timeZone);
    if (
      !p.splitsListed &&
      range.first < range.last &&
      !windows.some((w) => w.first <= range.last && w.last > range.first)
    ) {
      out.push({
        code: 'PRICES_SPLITS_UNVERIFIED',
        message: `${whereOf(d)}: split-adjusted history without a split list (no file of ${symbol} lists the splits of ${range.first}…${range.last} and the pipeline supplied none); as-traded values assume no splits up to ${downloadDate}. Supply the splits (sidecar .meta.json "splits" or options.knownSplits)`,
        count: 1,
      });
    }
    if (isoDayNumber(downloadDate) - isoDayNumber(range.last) <= GAP_DAYS) continue;
    let start = range.last;
    for (const w of windows)
      if (w.last > range.last && w.first <= downloadDate && w.last > start) start = w.last;
    if (isoDayNumber(downloadDate) - isoDayNumber(start) <= GAP_DAYS) continue;
    const key = `${start}|${downloadDate}`;
    const tail = tails.get(key) ?? { start, end: downloadDate, wheres: [], owner: null };
    tail.wheres.push(whereOf(d));
    if (range.last === start && tail.owner === null) tail.owner = whereOf(d);
    tails.set(key, tail);
  }
  for (const t of tails.values()) {
    const named = t.owner ?? t.wheres[0];
    const others = t.wheres.length - 1;
    out.push({
      code: 'PRICES_SPLITS_AFTER_RANGE_UNKNOWN',
      message: `${named}: split-adjusted bars, downloaded ${t.end}; no file of ${symbol} lists the splits after ${t.start} and the pipeline listed none, so as-traded values of this file${others > 0 ? ` and ${others} other file(s) of ${symbol}` : ''} assume there were none. Give "splits" in the .meta.json sidecar or options.knownSplits`,
      count: 1,
    });
  }
  return out;
}
