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

/** A grid timestamp of a series with its step number (the split's step_index / origin_index). */
export interface GridStep {
  timestamp: Micros;
  step: number;
}

/**
 * Point-in-time history for forecasters and baselines. `historyAt(series, t)` is the as-of view at t (per
 * timestamp the row with the greatest available_at <= t, timestamps <= t). A forecaster never gets the store:
 * it gets `atOrigin(o)`, a view that throws LookaheadError for any request beyond o.
 *
 * Each series also has its period grid (packages/split/sql/series_grid.sql: every timestamp the build holds
 * for it, in any vintage, numbered 1..n in time order), so that a baseline can count steps from the
 * origin's own step even when the latest steps are not public yet. `gridStep` answers from it.
 */
export class HistoryStore {
  readonly guard: GuardCounts = { requests: 0, rows: 0 };
  private readonly rows: Map<string, StoredHistoryRow[]>;
  private readonly grids: Map<string, { ts: Float64Array; step: Float64Array }>;

  /**
   * `rows` per series, in any order (sorted here by timestamp, then available_at); withdrawals included.
   * `grid` per series gives its grid steps; a series without one is numbered from its own rows (distinct
   * timestamps 1..n): the split's grid exactly when the store holds every vintage of the series, as
   * `fromUniverse` does. A store rebuilt from what a split serves misses the steps nobody was served, so it
   * must be given the split's step numbers (`asof baselines` passes the inputs' step_index and the origins'
   * origin_index).
   */
  constructor(rows: Map<string, readonly StoredHistoryRow[]>, grid?: Map<string, readonly GridStep[]>) {
    this.rows = new Map();
    this.grids = new Map();
    for (const [id, list] of rows) {
      const sorted = [...list].sort((a, b) => a.timestamp - b.timestamp || a.available_at - b.available_at);
      this.rows.set(id, sorted);
      const given = grid?.get(id);
      if (given) {
        const byTime = [...given].sort((a, b) => a.timestamp - b.timestamp);
        this.grids.set(id, {
          ts: Float64Array.from(byTime, (g) => g.timestamp),
          step: Float64Array.from(byTime, (g) => g.step),
        });
        continue;
      }
      const ts: number[] = [];
      for (const r of sorted) if (ts.length === 0 || ts[ts.length - 1] !== r.timestamp) ts.push(r.timestamp);
      this.grids.set(id, {
        ts: Float64Array.from(ts),
        step: Float64Array.from(ts, (_, i) => i + 1),
      });
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
   * docs/decisions/0007-withdrawal-rows.md), grouped by series, and optionally the grid steps of its
   * timestamps (see the constructor).
   */
  static fromRows(
    rows: Iterable<{ series_id: string; ts: bigint | number; av: bigint | number; value: number | null }>,
    grid?: Iterable<{ series_id: string; ts: bigint | number; step: bigint | number }>,
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
    let steps: Map<string, GridStep[]> | undefined;
    if (grid) {
      steps = new Map();
      for (const g of grid) {
        let list = steps.get(g.series_id);
        if (!list) {
          list = [];
          steps.set(g.series_id, list);
        }
        list.push({ timestamp: Number(g.ts), step: Number(g.step) });
      }
    }
    return new HistoryStore(map, steps);
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
    // Rows are sorted by (timestamp, available_at): the timestamps <= asOf are a prefix (found by bisection),
    // and walking it back from its end, the first public row of each timestamp is its latest public vintage.
    // Walking back stops once `lookback` values are found, so a short window costs what it serves, not the
    // whole history (an all-origins split asks for a window at every step).
    let end = 0;
    let hi = all.length;
    while (end < hi) {
      const mid = (end + hi) >>> 1;
      if (all[mid].timestamp <= asOf) end = mid + 1;
      else hi = mid;
    }
    const want = lookback === undefined || Number.isNaN(lookback) ? Number.POSITIVE_INFINITY : lookback;
    const served: HistoryRow[] = [];
    for (let i = end - 1; i >= 0 && served.length < want; ) {
      const timestamp = all[i].timestamp;
      let latest: StoredHistoryRow | undefined;
      for (; i >= 0 && all[i].timestamp === timestamp; i--) {
        if (latest === undefined && all[i].available_at <= asOf) latest = all[i];
      }
      // Checked non-null: the stored row is served as is (no copy per request).
      if (latest !== undefined && latest.value !== null) served.push(latest as HistoryRow);
    }
    served.reverse();
    for (const r of served) {
      this.guard.rows++;
      if (r.available_at > asOf)
        throw new LookaheadError(seriesId, microsToIso(asOf), microsToIso(r.available_at));
    }
    return served;
  }

  /**
   * The grid step of the last grid timestamp <= t (NaN when there is none): a row's own step for a row's
   * timestamp, and for an origin the step it is made at (a split's origins are grid timestamps; between two
   * grid timestamps, the last period that ended). Structure only: it says nothing about values or releases.
   */
  gridStep(seriesId: string, t: Micros): number {
    const g = this.grids.get(seriesId);
    if (!g) return Number.NaN;
    const lo = searchGrid(g.ts, t, true);
    return lo === 0 ? Number.NaN : g.step[lo - 1];
  }

  /**
   * The grid step of timestamp t itself (NaN when t is not a grid timestamp of the series): a served row's
   * position on the grid, where gridStep would answer for the last grid timestamp before an unknown one.
   * The drift baseline places its first and last observations with it (a store rebuilt from a split holds
   * the steps the split gives: not every training row's, docs/decisions/0056).
   */
  stepOf(seriesId: string, t: Micros): number {
    const g = this.grids.get(seriesId);
    if (!g) return Number.NaN;
    const lo = searchGrid(g.ts, t, false);
    return lo < g.ts.length && g.ts[lo] === t ? g.step[lo] : Number.NaN;
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

  /** HistoryStore.gridStep at `t` (default the origin); throws LookaheadError when `t` is after the origin. */
  gridStep(seriesId: string, t: Micros = this.origin): number {
    if (t > this.origin) throw new LookaheadError(seriesId, microsToIso(this.origin), microsToIso(t));
    return this.store.gridStep(seriesId, t);
  }

  /** HistoryStore.stepOf at `t`; throws LookaheadError when `t` is after the origin. */
  stepOf(seriesId: string, t: Micros): number {
    if (t > this.origin) throw new LookaheadError(seriesId, microsToIso(this.origin), microsToIso(t));
    return this.store.stepOf(seriesId, t);
  }
}

/** How many of a sorted grid's timestamps lie before t, or at or before t with `orEqual` (binary search). */
function searchGrid(ts: ArrayLike<number>, t: number, orEqual: boolean): number {
  let lo = 0;
  let hi = ts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[mid] < t || (orEqual && ts[mid] === t)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
