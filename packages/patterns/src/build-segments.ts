import { DOUBLE, type Duck, INTEGER, keyRanges, listValue, type Params, streamNumbers } from '@asof/duck';
import { AsofError, InputError } from '@asof/schema';
import { CHARACTERISTICS_WIDTH } from './characteristics/characteristics-batch.ts';
import { CharacteristicsPool } from './characteristics/characteristics-pool.ts';
import { runSegmentModel } from './run-segment-model.ts';
import { type SegmentOptions, segmentParams } from './segment-options.ts';

/** The grain of `segments`; write it with `ORDER BY ${SEGMENTS_ORDER_BY}`. */
export const SEGMENTS_ORDER_BY = 'series_id, segment';

/**
 * What the build writes for `segments`: pass it to @asof/transform's `writeTable(duck, dir, spec)`.
 * No timeColumns: a segment's first/last timestamps are not the manifest's timestamp/available_at pair.
 */
export const SEGMENTS_TABLE_SPEC = {
  path: 'segments.parquet',
  table: 'segments',
  select: 'SELECT * FROM segments',
  orderBy: SEGMENTS_ORDER_BY,
} as const;

/** Intermediate tables buildSegments creates and drops again. */
const WORK_TABLES = [
  'segment_steps',
  'segment_counts',
  'segment_outliers',
  'segment_stats',
  'segment_members',
  'segment_quota',
  'segment_characteristics',
];

/**
 * Builds the DuckDB table `segments` (SPEC §7) from the universe's `observations` (latest view) and
 * `series` tables: calendar-aligned segments per frequency, threshold and quota labels (SQL models in
 * ../sql), and the sequence characteristics and return moments of each segment's returns (TypeScript,
 * over streamed batches; segment_stats labels from those moments, docs/decisions/0031).
 * Needs `observations(series_id, timestamp, available_at, value)` and `series(series_id, frequency,
 * detail_category, n_revisions, entity_id)`; other columns are ignored. With a `member_spans` table (the
 * build's, @asof/transform), quota labels rank only the segments whose entity was a member when the
 * cross-section formed (segment_members.sql); without one, every series is a member.
 */
export async function buildSegments(duck: Duck, options: SegmentOptions = {}): Promise<void> {
  const log = options.log ?? (() => {});
  const params = segmentParams(options);
  validateParams(params);
  const started = performance.now();
  const step = (what: string) =>
    log(`[segments ${((performance.now() - started) / 1000).toFixed(1)}s] ${what}`);
  try {
    await runSegmentModel(duck, 'segment_steps', params);
    step('steps placed on the calendar grids');
    // segment_stats needs no table stored in step order (docs/decisions/0031): the returns' moments come
    // from the TypeScript pass (worker threads, concurrent scans on their own connections), while
    // segment_counts, exact in any order, runs beside it on the main connection. segment_outliers holds
    // per-row numbers only, so it too runs on all threads; segment_stats sums the runs' severities on one
    // thread, which keeps its windows' and aggregates' order, and so the Parquet bytes, the same.
    const threads = (await duck.one<{ t: string }>("SELECT current_setting('threads') AS t")).t;
    const workers = options.pool ?? options.workers ?? (await defaultWorkers(duck, Number(threads)));
    const reader = await duck.connect();
    let n = 0;
    try {
      // Wait for both before leaving: a rejected query must not be left running on the instance.
      const [, counted] = await Promise.allSettled([
        runSegmentModel(duck, 'segment_counts', params),
        computeCharacteristics(reader, params, workers),
      ]).then((results) => {
        for (const r of results) if (r.status === 'rejected') throw r.reason;
        return results.map((r) => (r as PromiseFulfilledResult<unknown>).value);
      });
      n = counted as number;
    } finally {
      reader.close();
    }
    step(`characteristics of ${n.toLocaleString('en-US')} segments`);
    await runSegmentModel(duck, 'segment_outliers', params);
    await duck.run('SET threads = 1');
    try {
      await runSegmentModel(duck, 'segment_stats', params);
    } finally {
      await duck.run(`SET threads = ${Number(threads)}`);
    }
    await assertMomentsCovered(duck);
    const noSpans = !(await tableExists(duck, 'member_spans'));
    if (noSpans) {
      await duck.run(
        'CREATE TEMP TABLE member_spans (entity_id VARCHAR, "from" TIMESTAMPTZ, "to" TIMESTAMPTZ, member BOOLEAN)',
      );
    }
    try {
      await runSegmentModel(duck, 'segment_members', params);
    } finally {
      if (noSpans) await duck.run('DROP TABLE member_spans');
    }
    await runSegmentModel(duck, 'segment_quota', params);
    step('segments labelled');
    await runSegmentModel(duck, 'segments', params);
  } finally {
    for (const t of WORK_TABLES) await duck.run(`DROP TABLE IF EXISTS ${t}`);
  }
}

/** Returns in segment_steps from which the characteristics go to worker threads (their start costs ~0.5 s). */
export const WORKERS_FROM_RETURNS = 1_000_000;

/**
 * Worker threads for the characteristics: as many as DuckDB's threads once there are enough returns,
 * none (inline) for small universes. They run beside segment_counts and the scans that feed them.
 */
async function defaultWorkers(duck: Duck, threads: number): Promise<number> {
  const r = await duck.one<{ n: bigint }>('SELECT count(*) AS n FROM segment_steps');
  return Number(r.n) >= WORKERS_FROM_RETURNS ? Math.max(1, threads) : 0;
}

async function tableExists(duck: Duck, name: string): Promise<boolean> {
  const r = await duck.one<{ n: bigint }>(
    'SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = $name',
    {
      name,
    },
  );
  return Number(r.n) > 0;
}

/**
 * Every labelled segment has the moments its labels came from: the TypeScript size rule
 * (computeCharacteristics) and segment_stats' must agree. A gap would leave a label computed from NULLs.
 */
async function assertMomentsCovered(duck: Duck): Promise<void> {
  const r = await duck.one<{ n: bigint }>('SELECT count(*) AS n FROM segment_stats WHERE ret_mean IS NULL');
  if (Number(r.n) > 0) {
    throw new AsofError(
      'SEGMENT_MOMENTS_MISSING',
      `segment_stats: ${r.n} labelled segments have no return moments in segment_characteristics (expected 0): segment_counts' size rule and computeCharacteristics' disagree, a bug in @asof/patterns`,
      { context: { segments: Number(r.n) } },
    );
  }
}

function validateParams(p: Record<string, number | string>): void {
  for (const key of ['len_bd', 'len_d', 'len_w', 'len_m', 'len_q', 'len_a']) {
    const v = Number(p[key]);
    if (!Number.isInteger(v) || v < 0 || (v > 0 && v < 10)) {
      throw new InputError(
        'BAD_SEGMENT_OPTIONS',
        `segment length ${key.slice(4).toUpperCase()} = ${p[key]}: expected 0 (skip) or an integer ≥ 10`,
      );
    }
  }
  const share = (key: string) => {
    const v = Number(p[key]);
    if (!(v >= 0 && v <= 1))
      throw new InputError('BAD_SEGMENT_OPTIONS', `${key} = ${p[key]}: expected a share in [0, 1]`);
    return v;
  };
  share('min_coverage');
  share('quota');
  if (!(share('down_share') < share('up_share'))) {
    throw new InputError(
      'BAD_SEGMENT_OPTIONS',
      `downShare ${p.down_share} must be below upShare ${p.up_share} (SPEC §7 defaults 0.45 and 0.55)`,
    );
  }
  if (!(Number(p.sigma) > 0) || !(Number(p.run_length) >= 1)) {
    throw new InputError(
      'BAD_SEGMENT_OPTIONS',
      `sigma ${p.sigma} and runLength ${p.run_length} must be positive`,
    );
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(String(p.epoch)) || new Date(`${p.epoch}T00:00:00Z`).getUTCDay() !== 1) {
    throw new InputError(
      'BAD_SEGMENT_OPTIONS',
      `grid epoch ${p.epoch}: expected an ISO date that is a Monday`,
    );
  }
}

/** (series_key, segment) as one exact number: segments are far inside ±2^20, keys below 2^32. */
const segmentKey = (seriesKey: number, segment: number) => seriesKey * 2 ** 21 + segment + 2 ** 20;
const keyParts = (key: number): [number, number] => {
  const seriesKey = Math.floor(key / 2 ** 21);
  return [seriesKey, key - seriesKey * 2 ** 21 - 2 ** 20];
};

/**
 * Streams every segment's returns and appends the SPEC §7 characteristics and the returns' mean and
 * sample standard deviation of each one segment_stats can label into `segment_characteristics`, keyed
 * (series_key, segment). It applies segment_stats' size rule itself (n_steps = returns + 1 ≥
 * min_coverage · L and returns ≥ min_returns; every step but a segment's first has a return), so every
 * labelled segment finds its moments here (assertMomentsCovered). segment_steps is not stored sorted: its
 * window leaves each segment's steps together and in step order, segments in no particular order, and
 * now and then a segment cut in two where the window's work was divided. So a scan takes each run of one
 * segment's ascending steps as it comes, and a segment met a second time, or out of step order, is read
 * again at the end with ORDER BY (SPLIT_SEGMENT_RETURNS) — the numbers never depend on the table's order.
 * The table is read as SCAN_STREAMS scans of series_key ranges at once, each on its own connection
 * (keyRanges cuts at most 1/SCAN_STREAMS of the rows per range, so a small last range can make one more).
 * Returns are copied into batches of whole segments for `workers` worker threads (docs/decisions/0025);
 * memory stays at a few batches per worker and scan.
 */
export async function computeCharacteristics(
  duck: Duck,
  params: Record<string, number | string>,
  workers: number | CharacteristicsPool,
): Promise<number> {
  const lengthOf: Record<string, number> = {
    BD: Number(params.len_bd),
    D: Number(params.len_d),
    W: Number(params.len_w),
    M: Number(params.len_m),
    Q: Number(params.len_q),
    A: Number(params.len_a),
  };
  const minSteps: number[] = [];
  // The same numbering as segment_steps.series_key.
  const keyed = await duck.all<{ k: number; frequency: string }>(
    'SELECT CAST(row_number() OVER (ORDER BY series_id) AS INTEGER) AS k, frequency FROM series',
  );
  for (const { k, frequency } of keyed) {
    minSteps[k] = Math.max(
      Number(params.min_returns) + 1,
      Number(params.min_coverage) * (lengthOf[frequency] ?? 0),
    );
  }
  const total = Number((await duck.one<{ n: bigint }>('SELECT count(*) AS n FROM segment_steps')).n);
  const ranges = await keyRanges(
    duck,
    'SELECT series_key AS key, count(*) AS n FROM segment_steps GROUP BY series_key',
    undefined,
    Math.max(1, Math.ceil(total / SCAN_STREAMS)),
  );
  // A pool the caller started is the caller's to close.
  const pool = typeof workers === 'number' ? new CharacteristicsPool(workers) : workers;
  const readers: Duck[] = [];
  const results: CharacteristicsRow[] = [];
  try {
    for (const _ of ranges) readers.push(await duck.connect());
    // Every scan is waited for before the connections close, a failed one included.
    const parts = await Promise.allSettled(
      ranges.map(([lo, hi], j) => characteristicsOf(readers[j], SEGMENT_RETURNS, { lo, hi }, minSteps, pool)),
    );
    const split: number[] = [];
    for (const part of parts) {
      if (part.status === 'rejected') throw part.reason;
      const { rows, again } = part.value;
      for (const r of rows) if (!again.has(segmentKey(r[0], r[1]))) results.push(r);
      split.push(...again);
    }
    if (split.length > 0) {
      const { rows, again } = await characteristicsOf(
        duck,
        `${SPLIT_SEGMENT_RETURNS} ORDER BY series_key, segment, step`,
        { keys: listValue(split) },
        minSteps,
        pool,
      );
      if (again.size > 0) {
        throw new AsofError(
          'SEGMENT_STEPS_UNORDERED',
          `segment_steps: ${again.size} segments' returns arrived out of step order even with ORDER BY (expected none)`,
        );
      }
      results.push(...rows);
    }
  } finally {
    for (const reader of readers) reader.close();
    if (pool !== workers) await pool.close();
  }
  // In key order, so the table is the same whatever order the scans met the segments in.
  results.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  await duck.run(
    `CREATE OR REPLACE TABLE segment_characteristics (series_key INTEGER, segment INTEGER, adf_stat DOUBLE,
       adf_used_lag INTEGER, adf_nobs INTEGER, acf1 DOUBLE, forecastability DOUBLE, ret_mean DOUBLE, ret_std DOUBLE)`,
  );
  const appender = await duck.openAppender('segment_characteristics', [
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
  for (const r of results) appender.push(r);
  appender.close();
  return results.length;
}

type CharacteristicsRow = [number, number, number, number, number, number, number, number, number];

/** The returns of series_key $lo … $hi, in the table's order. */
const SEGMENT_RETURNS =
  'SELECT series_key, segment, step, ret FROM segment_steps WHERE ret IS NOT NULL AND series_key BETWEEN $lo AND $hi';

/** The returns of the segments whose segmentKey is in the list $keys. */
const SPLIT_SEGMENT_RETURNS = `SELECT series_key, segment, step, ret FROM segment_steps
  WHERE ret IS NOT NULL AND CAST(series_key AS BIGINT) * ${2 ** 21} + segment + ${2 ** 20} IN (SELECT unnest($keys))`;

/**
 * Concurrent scans of segment_steps, by series_key range. Each DuckDB chunk (2,048 rows) reaches
 * JavaScript through an asynchronous fetch that waits ~0.2 ms for its thread hand-offs, which one scan
 * spends mostly idle; several in flight overlap those waits (25M returns: 4.3 s with one, 1.0 s with four).
 */
const SCAN_STREAMS = 4;

/** Segments per batch handed to the pool: big enough to amortise a message, small enough to balance. */
const BATCH_SEGMENTS = 256;

/**
 * The characteristics rows of one scan, in the order its segments ended, and the segments to read again
 * (`again`): met in more than one run of rows, or with a step not above the one before. Whole segments
 * go to `pool` in batches, at most `pool.inFlight` in flight (the scan waits for the oldest beyond that).
 * A segment's rows here may be part of it only when it is in `again`; the caller drops those rows.
 */
async function characteristicsOf(
  duck: Duck,
  sql: string,
  params: Params,
  minSteps: readonly number[],
  pool: CharacteristicsPool,
): Promise<{ rows: CharacteristicsRow[]; again: Set<number> }> {
  const out: CharacteristicsRow[] = [];
  const pending: { keys: number[]; result: Promise<Float64Array> }[] = [];
  const seen = new Set<number>();
  const again = new Set<number>();
  // The batch being filled: segments back to back in `values`, the current one from `start` to `used`.
  let values = new Float64Array(BATCH_SEGMENTS * 256);
  let used = 0;
  let start = 0;
  let offsets = [0];
  let keys: number[] = [];
  let current = -1;
  let lastStep = -1;
  // Rows of a segment already marked `again` are skipped until the next segment starts.
  let skipping = false;
  const endSegment = () => {
    const [seriesKey] = keyParts(current);
    if (skipping || used - start + 1 < (minSteps[seriesKey] ?? Number.POSITIVE_INFINITY)) {
      used = start; // partial (never labelled), or to be read again
      return;
    }
    keys.push(current);
    offsets.push(used);
    start = used;
  };
  const dispatch = () => {
    if (keys.length === 0) return;
    const capacity = values.length; // read before run(): a worker's batch is transferred (detached here)
    const result = pool.run({ offsets: Int32Array.from(offsets), values: values.subarray(0, used) });
    result.catch(() => {}); // awaited in order below; a failed scan never awaits it
    pending.push({ keys, result });
    values = new Float64Array(capacity);
    used = 0;
    start = 0;
    offsets = [0];
    keys = [];
  };
  const collectOldest = async () => {
    const batch = pending.shift();
    if (!batch) return;
    const r = await batch.result;
    batch.keys.forEach((key, i) => {
      const o = i * CHARACTERISTICS_WIDTH;
      out.push([...keyParts(key), ...r.subarray(o, o + CHARACTERISTICS_WIDTH)] as CharacteristicsRow);
    });
  };
  // The query's columns, in order: series_key, segment, step, ret.
  await streamNumbers(duck, sql, params, async ([k, g, step, ret], rows) => {
    for (let i = 0; i < rows; i++) {
      const key = segmentKey(k[i], g[i]);
      if (key !== current) {
        if (current >= 0) endSegment();
        if (keys.length >= BATCH_SEGMENTS) dispatch();
        while (pending.length > pool.inFlight) await collectOldest();
        current = key;
        skipping = seen.has(key);
        if (skipping) again.add(key);
        else seen.add(key);
      } else if (!skipping && step[i] <= lastStep) {
        again.add(key);
        skipping = true;
      }
      lastStep = step[i];
      if (skipping) continue;
      if (used === values.length) {
        const bigger = new Float64Array(values.length * 2);
        bigger.set(values);
        values = bigger;
      }
      values[used++] = ret[i];
    }
  });
  if (current >= 0) endSegment();
  dispatch();
  while (pending.length > 0) await collectOldest();
  return { rows: out, again };
}
