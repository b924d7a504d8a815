import { join } from 'node:path';
import { type Micros, microsToIso } from '@asof/calendar';
import { Duck, quoteLiteral } from '@asof/duck';
import { InputError } from '@asof/schema';
import { LookaheadError } from './lookahead-error.ts';

export interface HistoryRow {
  timestamp: Micros;
  available_at: Micros;
  value: number;
}

/**
 * A stored vintage: `value: null` is a withdrawal (docs/decisions/0007-withdrawal-rows.md): from its
 * available_at on, the timestamp has no value and `historyAt` serves no row for it.
 */
export interface StoredHistoryRow {
  timestamp: Micros;
  available_at: Micros;
  value: number | null;
}

/** Counts of guard checks: requests checked against their origin, and rows checked before being served. */
export interface GuardCounts {
  requests: number;
  rows: number;
}

/**
 * Point-in-time history for forecasters and baselines. `historyAt(series, t)` is the as-of view at t (per
 * timestamp the row with the greatest available_at <= t, timestamps <= t). A forecaster never gets the store:
 * it gets `atOrigin(o)`, a view that throws LookaheadError for any request beyond o.
 */
export class HistoryStore {
  readonly guard: GuardCounts = { requests: 0, rows: 0 };
  private readonly rows: Map<string, StoredHistoryRow[]>;

  /** `rows` per series, in any order (sorted here by timestamp, then available_at); withdrawals included. */
  constructor(rows: Map<string, readonly StoredHistoryRow[]>) {
    this.rows = new Map();
    for (const [id, list] of rows) {
      this.rows.set(
        id,
        [...list].sort((a, b) => a.timestamp - b.timestamp || a.available_at - b.available_at),
      );
    }
  }

  /** Loads every vintage of the given series (default all) from a universe folder's observations. */
  static async fromUniverse(dir: string, seriesIds?: readonly string[]): Promise<HistoryStore> {
    const duck = await Duck.open({ threads: 2 });
    try {
      const where = seriesIds ? 'WHERE series_id IN (SELECT unnest(string_split($ids, chr(31))))' : '';
      const found = await duck.all<{ series_id: string; ts: bigint; av: bigint; value: number | null }>(
        `SELECT series_id, epoch_us("timestamp") AS ts, epoch_us(available_at) AS av, value
         FROM read_parquet(${quoteLiteral(join(dir, 'observations', '*', '*.parquet'))}, hive_partitioning = true)
         ${where} ORDER BY series_id, "timestamp", available_at`,
        seriesIds ? { ids: seriesIds.join('\u001f') } : undefined,
      );
      return HistoryStore.fromRows(found);
    } finally {
      duck.close();
    }
  }

  /**
   * A store from flat query rows (epoch µs instants as bigint, value null for a withdrawal,
   * docs/decisions/0007-withdrawal-rows.md), grouped by series.
   */
  static fromRows(
    rows: Iterable<{ series_id: string; ts: bigint; av: bigint; value: number | null }>,
  ): HistoryStore {
    const map = new Map<string, StoredHistoryRow[]>();
    for (const r of rows) {
      let list = map.get(r.series_id);
      if (!list) {
        list = [];
        map.set(r.series_id, list);
      }
      list.push({ timestamp: Number(r.ts), available_at: Number(r.av), value: r.value });
    }
    return new HistoryStore(map);
  }

  has(seriesId: string): boolean {
    return this.rows.has(seriesId);
  }

  /**
   * The as-of view of one series at `asOf`, optionally only its last `lookback` timestamps. A timestamp whose
   * latest vintage public at `asOf` is a withdrawal is left out (and does not count towards `lookback`).
   */
  historyAt(seriesId: string, asOf: Micros, lookback?: number): HistoryRow[] {
    const all = this.rows.get(seriesId);
    if (!all) {
      throw new InputError(
        'UNKNOWN_SERIES',
        `history: series ${seriesId} is not loaded; load it with HistoryStore.fromUniverse`,
        {
          context: { series_id: seriesId },
        },
      );
    }
    const current: StoredHistoryRow[] = [];
    for (let i = 0; i < all.length; i++) {
      const r = all[i];
      if (r.timestamp > asOf) break;
      if (r.available_at > asOf) continue;
      const prev = current[current.length - 1];
      // Rows are sorted by (timestamp, available_at): a later public vintage of the same timestamp replaces it.
      if (prev && prev.timestamp === r.timestamp) current[current.length - 1] = r;
      else current.push(r);
    }
    const out: HistoryRow[] = [];
    for (const r of current) {
      // Checked non-null: the stored row is served as is (no copy per request).
      if (r.value !== null) out.push(r as HistoryRow);
    }
    const served = lookback === undefined ? out : out.slice(Math.max(0, out.length - lookback));
    for (const r of served) {
      this.guard.rows++;
      if (r.available_at > asOf)
        throw new LookaheadError(seriesId, microsToIso(asOf), microsToIso(r.available_at));
    }
    return served;
  }

  /** The view handed to a forecaster at origin `origin`. */
  atOrigin(origin: Micros): OriginView {
    return new OriginView(this, origin);
  }
}

/** What a forecaster sees at one origin: history as of the origin or earlier, never later. */
export class OriginView {
  constructor(
    private readonly store: HistoryStore,
    readonly origin: Micros,
  ) {}

  /** As-of view at `asOf` (default the origin); throws LookaheadError when `asOf` is after the origin. */
  historyAt(seriesId: string, asOf: Micros = this.origin, lookback?: number): HistoryRow[] {
    this.store.guard.requests++;
    if (asOf > this.origin) throw new LookaheadError(seriesId, microsToIso(this.origin), microsToIso(asOf));
    return this.store.historyAt(seriesId, asOf, lookback);
  }
}
