import { LISTED_UNIVERSE, type MembershipRow, type Micros } from '@asof/schema';
import type { PriceBar } from './price-types.ts';
import type { EmittingDownload } from './price-vintage-emitter.ts';

/** The first bar of a span (where it starts, when that was public, which file showed it) and its last bar. */
export interface ListingSpanState {
  first: { date: string; ts: Micros; at: Micros; ref: string };
  last: { date: string; ts: Micros };
}

/**
 * The instrument's trading span as its files show it, as `price_bars` rows of the universe `listed`
 * (docs/decisions/0021): from its first bar's close, public when that bar was; and, once a download made
 * after the last bar holds nothing later, the same interval closed just after the last bar's close, public
 * at that download. A file's last bar is where its download window ends, not evidence of a delisting, so
 * these rows decide listing only for instruments without EDGAR listing rows, and never make a series
 * "exited" (transform series.sql). Downloads are added one by one; `start` seeds the span with earlier
 * downloads' (`asof update`'s append path: OLD's rows).
 */
export class ListingSpan {
  private first: ListingSpanState['first'] | null;
  private last: ListingSpanState['last'] | null;
  private latest: { at: Micros; ref: string } | null = null;

  constructor(
    private readonly o: {
      lag: number;
      /** A bar is public from its download instant (vendor-adjusted levels available at download). */
      vendorAdjustedAtDownload: boolean;
      sessionClose: (date: string) => Micros;
    },
    start: ListingSpanState | null = null,
  ) {
    this.first = start === null ? null : { ...start.first };
    this.last = start === null ? null : { ...start.last };
  }

  /** One download's bars (as the quality check kept them). A bar with no price does not count. */
  add(d: EmittingDownload, bars: readonly PriceBar[]): void {
    if (this.latest === null || d.downloadedAt > this.latest.at)
      this.latest = { at: d.downloadedAt, ref: d.sourceRef };
    for (const bar of bars) {
      if (bar.open === null && bar.high === null && bar.low === null && bar.close === null) continue;
      const ts = this.o.sessionClose(bar.date);
      const at = this.o.vendorAdjustedAtDownload
        ? Math.max(ts + this.o.lag, d.downloadedAt)
        : ts + this.o.lag;
      const first = this.first;
      if (first === null || ts < first.ts || (ts === first.ts && at < first.at)) {
        this.first = { date: bar.date, ts, at, ref: d.sourceRef };
      }
      if (this.last === null || ts > this.last.ts) this.last = { date: bar.date, ts };
    }
  }

  /** The span's rows: the open one, and the closed one once a download came after the last bar. */
  rows(entityId: string): MembershipRow[] {
    const { first, last, latest } = this;
    if (first === null || last === null || latest === null) return [];
    const base = {
      entity_id: entityId,
      universe: LISTED_UNIVERSE,
      from: first.ts,
      source: 'price_bars' as const,
      effective_from: first.date,
    };
    const rows: MembershipRow[] = [
      { ...base, to: null, available_at: first.at, source_ref: first.ref, effective_to: null },
    ];
    const after = last.ts + 1;
    if (latest.at >= after) {
      rows.push({
        ...base,
        to: after,
        available_at: latest.at,
        source_ref: latest.ref,
        effective_to: last.date,
      });
    }
    return rows;
  }
}
