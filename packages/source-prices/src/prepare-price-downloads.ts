import { localDateOfMicros } from '@asof/calendar';
import type { AtomicSink, CorporateActionRow } from '@asof/schema';
import {
  actionAvailableAt,
  collectEntitySplits,
  type EntitySplit,
  type EntitySplits,
  splitCoverageWarnings,
  splitsAdjustedIn,
} from './entity-splits.ts';
import type { PriceDownload } from './map-prices-to-atomic.ts';
import type { DividendEvent, ParsedPriceFile, PriceBar } from './price-types.ts';
import { unadjustSplits } from './unadjust-splits.ts';

/** Dividends as paid by ex-date, with the `source_ref` of the download that first gave each. */
export type DividendsByDate = Map<string, { amount: number; ref: string }>;

export interface PreparedDownload {
  d: PriceDownload;
  where: string;
  /** As traded when the vendor's split adjustment could be undone; else as the file gives them. */
  bars: PriceBar[];
}

/** What preparing a download needs of its instrument. */
export interface DownloadPreparation {
  symbol: string;
  timeZone: string;
  allDays: boolean;
  /** The instrument's splits (collectEntitySplits); null for vendor-adjusted history (nothing is undone). */
  splits: readonly EntitySplit[] | null;
  /** The dividends of the downloads prepared so far; each download's new ones are added. */
  dividendsByDate: DividendsByDate;
}

/** A file's parse issues, one warning per code with the first three messages. */
export function warnParseIssues(where: string, parsed: ParsedPriceFile, sink: AtomicSink): void {
  if (parsed.issues.length === 0) return;
  const byCode = new Map<string, string[]>();
  for (const i of parsed.issues) byCode.set(i.code, [...(byCode.get(i.code) ?? []), i.message]);
  for (const [code, msgs] of byCode) {
    sink.addWarning({
      code: `PRICES_${code}`,
      message: `${where}: ${msgs.length} row(s): ${msgs.slice(0, 3).join(' | ')}`,
      count: msgs.length,
    });
  }
}

const sameAmount = (a: number, b: number): boolean =>
  Math.abs(a - b) <= 1e-4 * Math.max(Math.abs(a), Math.abs(b));

/**
 * One download made ready to map: its parse issues warned; unless vendor-adjusted, the splits public before
 * its download undone in its bars and dividends (one split list for the entity, whatever the download's own
 * window), and its dividends merged into `p.dividendsByDate` (the first download's amount kept, a later
 * different one warned about). Returns the ex-dates this download added.
 */
export function prepareDownload(
  d: PriceDownload,
  p: DownloadPreparation,
  sink: AtomicSink,
): PreparedDownload & { newDividends: string[] } {
  const where = d.where ?? `${p.symbol} download`;
  const parsed = d.parsed;
  warnParseIssues(where, parsed, sink);
  let bars: PriceBar[] = parsed.bars;
  let dividends: DividendEvent[] = parsed.dividends;
  const newDividends: string[] = [];
  if (p.splits !== null) {
    if (parsed.adjustment === 'split') {
      const applied = splitsAdjustedIn(p.splits, d.downloadedAt, p.timeZone, p.allDays);
      ({ bars, dividends } = unadjustSplits(
        bars,
        applied,
        localDateOfMicros(d.downloadedAt, p.timeZone),
        dividends,
      ));
    }
    for (const div of dividends) {
      const prev = p.dividendsByDate.get(div.exDate);
      if (prev === undefined) {
        p.dividendsByDate.set(div.exDate, { amount: div.amount, ref: d.sourceRef });
        newDividends.push(div.exDate);
      } else if (!sameAmount(prev.amount, div.amount)) {
        sink.addWarning({
          code: 'PRICES_DIVIDEND_MISMATCH',
          message: `${p.symbol} dividend ex ${div.exDate}: ${where} gives ${div.amount} (as paid) but an earlier download gave ${prev.amount}; kept the first`,
          count: 1,
        });
      }
    }
  }
  return { d, where, bars, newDividends };
}

/**
 * The instrument's corporate actions from all its downloads, and each download's bars with the splits it is
 * adjusted for undone (prepareDownload, in download order): one split list for the entity
 * (collectEntitySplits, its overrides warned), and what no file can tell (splitCoverageWarnings).
 */
export function prepareDownloads(
  sorted: readonly PriceDownload[],
  sink: AtomicSink,
  o: { symbol: string; vendorAdjusted: boolean; tz: string; allDays: boolean },
): { entity: EntitySplits | null; prepared: PreparedDownload[]; dividendsByDate: DividendsByDate } {
  const entity = o.vendorAdjusted ? null : collectEntitySplits(o.symbol, sorted);
  if (entity !== null) {
    for (const x of entity.overridden) {
      sink.addWarning({
        code: 'PRICES_SPLIT_OVERRIDDEN',
        message: `${x.where}: lists a split of ratio ${x.fileRatio} on ${x.exDate} but ${x.from} gives ${x.ratio}; used ${x.ratio} for every download of ${o.symbol}`,
        count: 1,
      });
    }
    for (const w of splitCoverageWarnings(o.symbol, sorted, o.tz)) sink.addWarning(w);
  }
  const p: DownloadPreparation = {
    symbol: o.symbol,
    timeZone: o.tz,
    allDays: o.allDays,
    splits: entity?.splits ?? null,
    dividendsByDate: new Map(),
  };
  const prepared = sorted.map((d) => {
    const { where, bars } = prepareDownload(d, p, sink);
    return { d, where, bars };
  });
  return { entity, prepared, dividendsByDate: p.dividendsByDate };
}

/** A split or dividend as a corporate_actions row, public at its ex-date's session open (actionAvailableAt). */
export function corporateActionRow(
  entityId: string,
  kind: 'split' | 'dividend',
  exDate: string,
  value: number,
  sourceRef: string,
  o: { timeZone: string; allDays: boolean },
): CorporateActionRow {
  return {
    entity_id: entityId,
    ex_date: exDate,
    kind,
    value,
    available_at: actionAvailableAt(exDate, o.timeZone, o.allDays),
    source_ref: sourceRef,
  };
}
