import { DOUBLE, type Duck, INTEGER, keyRanges, type NumberLists, streamNumberLists } from '@asof/duck';
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
    // from the TypeScript pass (worker threads, its group-by on a connection of its own), while
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

/**
 * Returns in segment_steps from which the characteristics go to worker threads. Each worker's start costs
 * ~0.5–1 CPU-s (loading its TypeScript), which on two cores slows whatever runs beside it: measured
 * back to back, the default build (5.4M steps, 22.6k segments) took 0.5–0.7 s less wall inline, bench
 * scale 0.01 (2M) 0.9 s and 0.05 (8.7M) 0.1–0.7 s less, while scale 0.1 (17M) took 0.6 s more (docs 0025).
 */
export const WORKERS_FROM_RETURNS = 10_000_000;

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

/**
 * Computes the SPEC §7 characteristics and the returns' mean and sample standard deviation of every
 * segment segment_stats can label, and appends them to `segment_characteristics`, keyed (series_key,
 * segment). It applies segment_stats' size rule itself (n_steps = returns + 1 ≥ min_coverage · L and
 * returns ≥ min_returns; every step but a segment's first has a return), so every labelled segment finds
 * its moments here (assertMomentsCovered). Each segment reaches JavaScript as one row of two lists, its
 * steps and its returns, gathered by a GROUP BY in whatever order DuckDB's threads met them; the pass
 * puts the returns in step order itself (docs/decisions/0032), so the numbers never depend on the
 * table's order. Returns are copied into batches of whole segments for `workers` worker threads
 * (docs/decisions/0025); memory stays at a few batches per worker beside DuckDB's aggregate.
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
    Math.max(1, Math.min(MAX_RANGE_RETURNS, Math.ceil(total / MIN_RANGES))),
  );
  // A pool the caller started is the caller's to close.
  const pool = typeof workers === 'number' ? new CharacteristicsPool(workers) : workers;
  let results: CharacteristicsRow[];
  try {
    results = await characteristicsOf(duck, ranges, minSteps, pool);
  } finally {
    if (pool !== workers) await pool.close();
  }
  // In key order, so the table is the same whatever order the queries returned the segments in.
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

/** The steps and returns of each segment of series_key $lo … $hi: two lists in the same (unspecified) order. */
const SEGMENT_RETURNS = `SELECT series_key, segment, list(step) AS steps, list(ret) AS rets
  FROM segment_steps WHERE ret IS NOT NULL AND series_key BETWEEN $lo AND $hi GROUP BY series_key, segment`;

/**
 * The group-by runs over consecutive series_key ranges, one after another, of at most 1/MIN_RANGES of
 * the rows and at most MAX_RANGE_RETURNS rows each: a smaller aggregate stays in cache and memory. On the
 * segments bench (124M returns, numbers read only) one range took 9.0–10.6 s, two 7.1–7.5 s, four
 * 6.0–7.0 s, eight 6.4–8.0 s, sixteen 7.4 s.
 */
const MIN_RANGES = 4;
const MAX_RANGE_RETURNS = 32_000_000;

/** Segments per batch handed to the pool: big enough to amortise a message, small enough to balance. */
const BATCH_SEGMENTS = 256;

/**
 * The characteristics rows of every segment of `ranges` that meets its minimum size, in the order the
 * queries returned them. Whole segments go to `pool` in batches, at most `pool.inFlight` in flight (the
 * stream waits for the oldest beyond that).
 */
async function characteristicsOf(
  duck: Duck,
  ranges: readonly [number, number][],
  minSteps: readonly number[],
  pool: CharacteristicsPool,
): Promise<CharacteristicsRow[]> {
  const out: CharacteristicsRow[] = [];
  const pending: { keys: [number, number][]; result: Promise<Float64Array> }[] = [];
  // The batch being filled: segments back to back in `values`, segment i from offsets[i] to offsets[i + 1].
  let values = new Float64Array(BATCH_SEGMENTS * 256);
  let offsets = [0];
  let keys: [number, number][] = []; // (series_key, segment) of each segment in the batch
  const dispatch = () => {
    if (keys.length === 0) return;
    const capacity = values.length; // read before run(): a worker's batch is transferred (detached here)
    const used = offsets[offsets.length - 1];
    const result = pool.run({ offsets: Int32Array.from(offsets), values: values.subarray(0, used) });
    result.catch(() => {}); // awaited in order below; a failed stream never awaits it
    pending.push({ keys, result });
    values = new Float64Array(capacity);
    offsets = [0];
    keys = [];
  };
  const collectOldest = async () => {
    const batch = pending.shift();
    if (!batch) return;
    const r = await batch.result;
    batch.keys.forEach((key, i) => {
      const o = i * CHARACTERISTICS_WIDTH;
      out.push([...key, ...r.subarray(o, o + CHARACTERISTICS_WIDTH)] as CharacteristicsRow);
    });
  };
  const take = async ([k, g]: Float64Array[], [steps, rets]: NumberLists[], rows: number) => {
    for (let i = 0; i < rows; i++) {
      const n = rets.length[i];
      if (n + 1 < (minSteps[k[i]] ?? Number.POSITIVE_INFINITY)) continue; // partial: never labelled
      if (keys.length >= BATCH_SEGMENTS) {
        dispatch();
        while (pending.length > pool.inFlight) await collectOldest();
      }
      const used = offsets[offsets.length - 1];
      if (used + n > values.length) {
        const bigger = new Float64Array(Math.max(values.length * 2, used + n));
        bigger.set(values.subarray(0, used));
        values = bigger;
      }
      copyInStepOrder(steps, rets, i, values, used, k[i], g[i]);
      keys.push([k[i], g[i]]);
      offsets.push(used + n);
    }
  };
  for (const [lo, hi] of ranges) await streamNumberLists(duck, SEGMENT_RETURNS, { lo, hi }, take);
  dispatch();
  while (pending.length > 0) await collectOldest();
  return out;
}

/**
 * Writes row i's returns into `into` from `at`, in the order of its steps. A GROUP BY gathers each
 * group's values in the order its threads met them: mostly the table's, which for segment_steps is
 * step order, but a segment whose rows two threads shared can come back in two pieces swapped.
 */
function copyInStepOrder(
  steps: NumberLists,
  rets: NumberLists,
  i: number,
  into: Float64Array,
  at: number,
  seriesKey: number,
  segment: number,
): void {
  const n = rets.length[i];
  const s = steps.start[i];
  const r = rets.start[i];
  if (steps.length[i] !== n) {
    throw new AsofError(
      'SEGMENT_STEPS_MALFORMED',
      `segment_steps: segment ${segment} of series_key ${seriesKey} has ${steps.length[i]} steps but ${n} returns (expected one return per step)`,
    );
  }
  let ascending = true;
  for (let j = s + 1; j < s + n; j++) {
    if (steps.items[j] <= steps.items[j - 1]) {
      ascending = false;
      break;
    }
  }
  if (ascending) {
    into.set(rets.items.subarray(r, r + n), at);
    return;
  }
  const order = Array.from({ length: n }, (_, j) => j).sort(
    (a, b) => steps.items[s + a] - steps.items[s + b],
  );
  for (let j = 0; j < n; j++) {
    if (j > 0 && steps.items[s + order[j]] === steps.items[s + order[j - 1]]) {
      throw new AsofError(
        'SEGMENT_STEPS_MALFORMED',
        `segment_steps: segment ${segment} of series_key ${seriesKey} has step ${steps.items[s + order[j]]} twice (expected each step once)`,
      );
    }
    into[at + j] = rets.items[r + order[j]];
  }
}
