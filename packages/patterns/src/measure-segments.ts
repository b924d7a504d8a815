import {
  cutRanges,
  DOUBLE,
  type Duck,
  INTEGER,
  type NumberLists,
  pickUsedParams,
  streamNumberLists,
  threadsOf,
} from '@asof/duck';
import { AsofError } from '@asof/schema';
import { CHARACTERISTICS_WIDTH } from './characteristics/characteristics-batch.ts';
import { CharacteristicsPool } from './characteristics/characteristics-pool.ts';
import { patternModelSql } from './run-segment-model.ts';
import { type SegmentTally, walkSegment } from './segment-walk.ts';

/**
 * Placed rows from which the characteristics go to worker threads. Each worker's start costs ~0.5–1 CPU-s
 * (loading its TypeScript), which on two cores slows whatever runs beside it: measured back to back, the
 * default build (5.4M steps, 22.6k segments) took 0.5–0.7 s less wall inline, bench scale 0.01 (2M)
 * 0.9 s and 0.05 (8.7M) 0.1–0.7 s less, while scale 0.1 (17M) took 0.6 s more (docs 0025). From the
 * bin's bundle a worker starts in ~0.2 CPU-s (docs 0038), yet five alternating pairs of the default build
 * with the threshold at 1M still took 0.4 s more wall (median 11.54 s against 11.10 s inline).
 */
export const WORKERS_FROM_ROWS = 10_000_000;

/**
 * The placed rows are gathered over consecutive series_key ranges, one after another, of at most
 * 1/MIN_RANGES of the rows and at most MAX_RANGE_ROWS rows each: a smaller aggregate stays in cache and
 * memory, and each range's scan skips the other series' row groups. Segments bench (124M rows),
 * buildSegments: ranges of ≤ 32M rows 33.7 s (peak RSS 4.58 GB), 16M 32.4 s (3.90), 8M 31.1 s (3.76),
 * 4M 33.1 s (3.66); bench scale 1 (171M), patterns: 32M 66.3 s (peak 7.5 GB), 16M 56.2 s (6.95 GB),
 * 8M 68.3 s (6.83 GB), each range scanning more of the others' rows there. Below 32M rows MIN_RANGES
 * decides, and each range reads the whole observations view once: halves rather than quarters took the
 * default build's characteristics step from 3.5–4.7 s (median 4.2) to 3.3–4.1 s (median 3.4), faster in
 * all seven alternating pairs (a later set of six pairs: 0.15 s faster by the median pair), and bench
 * scale 0.1's patterns stage from 9.8 / 10.2 s to 9.2 / 8.9 s (peak RSS 2.7 → 2.8 GB); one range was
 * slower than either (issue 21, stop 45).
 */
const MIN_RANGES = 2;
const MAX_RANGE_ROWS = 16_000_000;

/** Segments per batch handed to the pool: big enough to amortise a message, small enough to balance. */
const BATCH_SEGMENTS = 256;

/** The grain of segment_tallies, segment_characteristics and segment_outliers. */
const KEY_COLUMNS = 'series_key INTEGER, segment INTEGER';

/**
 * Reads every segment's placed rows (segment_placed.sql) as one row of three lists and computes, in
 * TypeScript, what SPEC §7 needs of its steps (docs/decisions/0035):
 * - `segment_tallies`: per segment, segment_counts' numbers (steps, returns, positive returns, least
 *   value, first and last timestamps as epoch µs), by segment_steps.sql's rule (walkSegment);
 * - `segment_characteristics`: for each segment that meets segment_counts' size rule (n_steps ≥
 *   min_coverage · L and returns ≥ min_returns), the characteristics and the returns' mean and sample
 *   standard deviation in step order (DuckDB's own operations, docs/decisions/0031), on `workers`;
 * - `segment_outliers`: the returns of those segments more than sigma standard deviations from the mean.
 * Every number is computed from one segment's rows in step order, so none depends on the order the
 * GROUP BY returned them in. Returns the number of segments measured.
 */
export async function measureSegments(
  duck: Duck,
  params: Record<string, number | string>,
  workers: number | CharacteristicsPool | 'auto',
): Promise<number> {
  const lengthOf: Record<string, number> = {
    BD: Number(params.len_bd),
    D: Number(params.len_d),
    W: Number(params.len_w),
    M: Number(params.len_m),
    Q: Number(params.len_q),
    A: Number(params.len_a),
  };
  // The same numbering as segment_placed.series_key; observation rows per series size the ranges.
  const keyed = await duck.all<{ k: number; frequency: string; n: bigint | null }>(
    `WITH keyed AS (
       SELECT series_id, frequency, CAST(row_number() OVER (ORDER BY series_id) AS INTEGER) AS k FROM series
     ),
     counted AS (SELECT series_id, count(*) AS n FROM observations GROUP BY series_id)
     SELECT k, frequency, n FROM keyed LEFT JOIN counted USING (series_id) ORDER BY k`,
  );
  const segmentLength: number[] = [];
  const counts: [number, number][] = [];
  for (const { k, frequency, n } of keyed) {
    segmentLength[k] = lengthOf[frequency] ?? 0;
    if (segmentLength[k] > 0 && n !== null) counts.push([k, Number(n)]);
  }
  const total = counts.reduce((sum, [, n]) => sum + n, 0);
  const ranges = cutRanges(counts, Math.max(1, Math.min(MAX_RANGE_ROWS, Math.ceil(total / MIN_RANGES))));
  const size = workers === 'auto' ? (total >= WORKERS_FROM_ROWS ? await threadsOf(duck) : 0) : workers;
  // A pool the caller started is the caller's to close.
  const pool = typeof size === 'number' ? new CharacteristicsPool(size) : size;
  const sink = new MeasureSink(duck, {
    segmentLength,
    minCoverage: Number(params.min_coverage),
    minReturns: Number(params.min_returns),
    sigma: Number(params.sigma),
  });
  try {
    await measureRanges(duck, params, ranges, sink, pool);
  } finally {
    if (pool !== size) await pool.close();
  }
  await sink.write();
  return sink.measured;
}

/** Each segment's placed rows of series_key $key_lo … $key_hi: three lists in the same (unspecified) order. */
function segmentRowsSql(): string {
  return `SELECT series_key, segment, list(step) AS steps, list(epoch_us("timestamp")::DOUBLE) AS micros,
    list(value) AS vals
  FROM (
${patternModelSql('segment_placed')}
  ) GROUP BY series_key, segment`;
}

interface MeasureRules {
  segmentLength: readonly number[];
  minCoverage: number;
  minReturns: number;
  sigma: number;
}

type CharacteristicsRow = [number, number, number, number, number, number, number, number, number];

/** The batch being filled: segments' returns back to back, segment i from offsets[i] to offsets[i + 1]. */
interface Batch {
  keys: [number, number][];
  offsets: number[];
  returns: Float64Array;
  steps: Int32Array;
}

const newBatch = (capacity: number): Batch => ({
  keys: [],
  offsets: [0],
  returns: new Float64Array(capacity),
  steps: new Int32Array(capacity),
});

async function measureRanges(
  duck: Duck,
  params: Record<string, number | string>,
  ranges: readonly [number, number][],
  sink: MeasureSink,
  pool: CharacteristicsPool,
): Promise<void> {
  const pending: { batch: Batch; result: Promise<Float64Array> }[] = [];
  let batch = newBatch(BATCH_SEGMENTS * 256);
  const dispatch = () => {
    if (batch.keys.length === 0) return;
    const used = batch.offsets[batch.offsets.length - 1];
    // A copy goes to the worker (transferred, detached here): the outliers need the returns afterwards.
    const result = pool.run({
      offsets: Int32Array.from(batch.offsets),
      values: batch.returns.slice(0, used),
    });
    result.catch(() => {}); // awaited in order below; a failed stream never awaits it
    pending.push({ batch, result });
    batch = newBatch(batch.returns.length);
  };
  const collectOldest = async () => {
    const done = pending.shift();
    if (done) sink.addCharacteristics(done.batch, await done.result);
  };
  const take = async ([k, g]: Float64Array[], [steps, micros, values]: NumberLists[], rows: number) => {
    for (let i = 0; i < rows; i++) {
      const n = steps.length[i];
      if (micros.length[i] !== n || values.length[i] !== n) {
        throw new AsofError(
          'SEGMENT_ROWS_MALFORMED',
          `segment_placed: segment ${g[i]} of series_key ${k[i]} came back with ${n} steps, ${micros.length[i]} timestamps and ${values.length[i]} values (expected as many of each), a bug in @asof/patterns`,
        );
      }
      const used = batch.offsets[batch.offsets.length - 1];
      if (used + n > batch.returns.length) grow(batch, Math.max(batch.returns.length * 2, used + n));
      const part = (l: NumberLists) => l.items.subarray(l.start[i], l.start[i] + n);
      const rowsOf = { steps: part(steps), micros: part(micros), values: part(values) };
      const tally = walkSegment(rowsOf, batch.returns, batch.steps, used);
      if (!sink.addTally(k[i], g[i], tally)) continue;
      batch.keys.push([k[i], g[i]]);
      batch.offsets.push(used + tally.nReturns);
      if (batch.keys.length >= BATCH_SEGMENTS) {
        dispatch();
        while (pending.length > pool.inFlight) await collectOldest();
      }
    }
  };
  const sql = segmentRowsSql();
  const used = pickUsedParams(sql, params);
  for (const [lo, hi] of ranges) {
    await streamNumberLists(duck, sql, { ...used, key_lo: lo, key_hi: hi }, take);
  }
  dispatch();
  while (pending.length > 0) await collectOldest();
}

function grow(batch: Batch, capacity: number): void {
  const used = batch.offsets[batch.offsets.length - 1];
  const returns = new Float64Array(capacity);
  returns.set(batch.returns.subarray(0, used));
  const steps = new Int32Array(capacity);
  steps.set(batch.steps.subarray(0, used));
  batch.returns = returns;
  batch.steps = steps;
}

/** Growable typed columns of one table, appended at the end in one go. */
class Columns {
  length = 0;
  private data: (Float64Array | Int32Array)[];
  constructor(private readonly kinds: readonly ('i' | 'd')[]) {
    this.data = kinds.map((k) => (k === 'i' ? new Int32Array(1024) : new Float64Array(1024)));
  }
  push(...values: number[]): void {
    if (this.length === this.data[0].length) {
      this.data = this.data.map((a) => {
        const bigger = new (a.constructor as Int32ArrayConstructor | Float64ArrayConstructor)(a.length * 2);
        bigger.set(a);
        return bigger;
      });
    }
    for (let c = 0; c < values.length; c++) this.data[c][this.length] = values[c];
    this.length++;
  }
  async appendTo(duck: Duck, table: string): Promise<void> {
    const appender = await duck.openAppender(
      table,
      this.kinds.map((k) => (k === 'i' ? INTEGER : DOUBLE)),
    );
    appender.pushColumns(
      this.data.map((a) => a.subarray(0, this.length)),
      this.length,
    );
    appender.close();
  }
}

/** Collects the three tables' rows and writes them when the pass ends. */
class MeasureSink {
  measured = 0;
  // Counts fit INTEGER (a segment has at most its length in steps); instants are µs since the epoch,
  // exact as doubles (< 2^53), turned into TIMESTAMPTZ by segment_counts.sql.
  private readonly tallies = new Columns(['i', 'i', 'i', 'i', 'i', 'd', 'd', 'd']);
  private readonly outliers = new Columns(['i', 'i', 'i', 'd']);
  private readonly characteristics: CharacteristicsRow[] = [];

  constructor(
    private readonly duck: Duck,
    private readonly rules: MeasureRules,
  ) {}

  /** Records a segment's tally; true when it meets segment_counts' size rule and so is measured. */
  addTally(k: number, g: number, t: SegmentTally): boolean {
    this.tallies.push(k, g, t.nSteps, t.nReturns, t.nPositive, t.minValue, t.firstMicros, t.lastMicros);
    const length = this.rules.segmentLength[k] ?? 0;
    return t.nSteps >= this.rules.minCoverage * length && t.nReturns >= this.rules.minReturns;
  }

  /** A batch's characteristics, and its returns beyond sigma standard deviations (segment_stats' outliers). */
  addCharacteristics(batch: Batch, r: Float64Array): void {
    const { sigma } = this.rules;
    batch.keys.forEach(([k, g], i) => {
      const o = i * CHARACTERISTICS_WIDTH;
      this.characteristics.push([k, g, ...r.subarray(o, o + CHARACTERISTICS_WIDTH)] as CharacteristicsRow);
      const mean = r[o + 5];
      const std = r[o + 6];
      if (!(std > 0)) return;
      for (let j = batch.offsets[i]; j < batch.offsets[i + 1]; j++) {
        // segment_stats' former SQL, operation for operation: |ret − mean| > sigma · std, z = |ret − mean| / std.
        const d = Math.abs(batch.returns[j] - mean);
        if (d > sigma * std) this.outliers.push(k, g, batch.steps[j], d / std);
      }
    });
    this.measured += batch.keys.length;
  }

  /** Creates the three tables and appends the rows (characteristics in key order, so that table is the same whatever order the pass met them). */
  async write(): Promise<void> {
    await this.duck.run(
      `CREATE OR REPLACE TABLE segment_tallies (${KEY_COLUMNS}, n_steps INTEGER, n_returns INTEGER,
         n_positive INTEGER, min_value DOUBLE, first_us DOUBLE, last_us DOUBLE)`,
    );
    await this.duck.run(
      `CREATE OR REPLACE TABLE segment_characteristics (${KEY_COLUMNS}, adf_stat DOUBLE, adf_used_lag INTEGER,
         adf_nobs INTEGER, acf1 DOUBLE, forecastability DOUBLE, ret_mean DOUBLE, ret_std DOUBLE)`,
    );
    await this.duck.run(
      `CREATE OR REPLACE TABLE segment_outliers (${KEY_COLUMNS}, step INTEGER, z_abs DOUBLE)`,
    );
    await this.tallies.appendTo(this.duck, 'segment_tallies');
    await this.outliers.appendTo(this.duck, 'segment_outliers');
    this.characteristics.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const appender = await this.duck.openAppender('segment_characteristics', [
      INTEGER,
      INTEGER,
      DOUBLE,
      INTEGER,
      INTEGER,
      DOUBLE,
      DOUBLE,
      DOUBLE,
      DOUBLE,
    ]);
    for (const row of this.characteristics) appender.push(row);
    appender.close();
  }
}
