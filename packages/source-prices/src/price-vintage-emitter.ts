import { localDateOfMicros } from '@asof/calendar';
import type { AtomicSink, AvailableAtBasis, Micros } from '@asof/schema';
import type { PriceField } from '@asof/taxonomy';
import type { PriceBar } from './price-types.ts';

/** The bar fields every instrument has a series of, in the order they are emitted. */
export const PRICE_FIELDS: readonly PriceField[] = ['open', 'high', 'low', 'close', 'volume'];

/** What a row needs of its download. */
export interface EmittingDownload {
  downloadedAt: Micros;
  sourceRef: string;
  where?: string;
}

/** A changed value whose instant is not after the value it would revise (it is not emitted). */
export interface VintageConflict {
  seriesId: string;
  ts: Micros;
  value: number;
  previous: number | null;
  d: EmittingDownload;
}

export interface PriceVintageOptions {
  /** Vendor lag added to the bar's close to get its available_at, µs. */
  lagMicros: number;
  /** Relative difference below which a later value counts as unchanged. */
  tolerance: number;
  /** Exchange time zone (dates in messages). */
  timeZone: string;
  /** A first value is available only from its download instant (vendor-adjusted levels embed later actions). */
  firstAtDownload: boolean;
  /** Called for each conflict; default: a PRICES_VINTAGE_CONFLICT warning (the first value is kept). */
  onConflict?: (conflict: VintageConflict) => void;
}

const sameValue = (a: number, b: number, tol: number): boolean =>
  Math.abs(a - b) <= tol * Math.max(Math.abs(a), Math.abs(b));

/**
 * The rows of an instrument's downloads, mapped in download order (the core of mapPricesToAtomic): a value at
 * a series and timestamp is a row at the bar close (+ lag, basis `bar_close`); a later download's different
 * value is a new row at that download instant (basis `vintage`); an unchanged re-publication adds nothing.
 * It keeps the latest value and available_at per series and timestamp; `know` seeds them with rows emitted
 * before (`asof update`'s append path: OLD's rows), so a later download maps as it would after them.
 */
export class PriceVintageEmitter {
  observations = 0;
  revisions = 0;
  // Two maps, not one of objects: no per-row allocation.
  private readonly lastValue = new Map<string, Map<Micros, number | null>>();
  private readonly lastAvailable = new Map<string, Map<Micros, Micros>>();

  constructor(
    private readonly sink: AtomicSink,
    private readonly o: PriceVintageOptions,
  ) {}

  /** Records a row emitted before (value and availability), without emitting it. */
  know(seriesId: string, ts: Micros, value: number | null, availableAt: Micros): void {
    this.valuesOf(seriesId).set(ts, value);
    this.lastAvailable.get(seriesId)!.set(ts, availableAt);
  }

  /** Emits one value of one series at one bar timestamp, from download `d`. */
  emit(seriesId: string, ts: Micros, value: number, d: EmittingDownload): void {
    if (!Number.isFinite(value)) return;
    const values = this.valuesOf(seriesId);
    const availables = this.lastAvailable.get(seriesId)!;
    const prev = values.get(ts);
    const barAvailable = ts + this.o.lagMicros;
    let availableAt: Micros;
    let basis: AvailableAtBasis;
    if (prev === undefined) {
      availableAt = this.o.firstAtDownload ? Math.max(barAvailable, d.downloadedAt) : barAvailable;
      basis = availableAt === barAvailable ? 'bar_close' : 'vintage';
    } else {
      if (prev !== null && sameValue(prev, value, this.o.tolerance)) return;
      availableAt = Math.max(barAvailable, d.downloadedAt);
      basis = 'vintage';
      if (availableAt <= availables.get(ts)!) {
        this.conflict({ seriesId, ts, value, previous: prev, d });
        return;
      }
      this.revisions++;
    }
    this.sink.addObservation({
      series_id: seriesId,
      timestamp: ts,
      period_start: null,
      available_at: availableAt,
      value,
      available_at_basis: basis,
      source_ref: d.sourceRef,
    });
    this.observations++;
    values.set(ts, value);
    availables.set(ts, availableAt);
  }

  /**
   * Emits every field of every bar of one download (bars as the quality check kept them) into the series
   * `ids`. Yahoo and Stooq report 0 volume for indices, meaning "not available": no row.
   */
  emitBars(
    bars: readonly PriceBar[],
    ids: Record<PriceField, string>,
    d: EmittingDownload,
    o: { sessionClose: (date: string) => Micros; isIndex: boolean },
  ): void {
    for (const bar of bars) {
      const ts = o.sessionClose(bar.date);
      for (const f of PRICE_FIELDS) {
        let v = bar[f];
        if (f === 'volume' && o.isIndex && v === 0) v = null;
        if (v !== null) this.emit(ids[f], ts, v, d);
      }
    }
  }

  private conflict(c: VintageConflict): void {
    if (this.o.onConflict !== undefined) {
      this.o.onConflict(c);
      return;
    }
    this.sink.addWarning({
      code: 'PRICES_VINTAGE_CONFLICT',
      message: `${c.seriesId} at ${localDateOfMicros(c.ts, this.o.timeZone)}: ${c.d.where ?? 'a download'} gives ${c.value} but an earlier-or-same download instant already gave ${c.previous}; kept the first`,
      count: 1,
    });
  }

  /** The series' latest values by timestamp, created (with its availability map) on first use. */
  private valuesOf(seriesId: string): Map<Micros, number | null> {
    let values = this.lastValue.get(seriesId);
    if (values === undefined) {
      values = new Map();
      this.lastValue.set(seriesId, values);
      this.lastAvailable.set(seriesId, new Map());
    }
    return values;
  }
}
