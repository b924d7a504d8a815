import { BIGINT, DOUBLE, type Duck, INTEGER, streamArrow } from '@asof/duck';
import { InputError } from '@asof/schema';
import { runSegmentModel } from './run-segment-model.ts';
import { type SegmentOptions, segmentParams } from './segment-options.ts';
import { sequenceCharacteristics } from './stats/sequence-characteristics.ts';

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
const WORK_TABLES = ['segment_steps', 'segment_stats', 'segment_quota', 'segment_characteristics'];

/**
 * Builds the DuckDB table `segments` (SPEC §7) from the universe's `observations` (latest view) and
 * `series` tables: calendar-aligned segments per frequency, threshold and quota labels (SQL models in
 * ../sql), and the sequence characteristics of each segment's returns (TypeScript, over Arrow batches).
 * Needs `observations(series_id, timestamp, available_at, value)` and `series(series_id, frequency,
 * detail_category, n_revisions)`; other columns are ignored.
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
    // Float sums (mean, std, severity) depend on summation order; one thread over the sorted
    // segment_steps table makes that order — and so the Parquet bytes — the same on every run.
    const threads = (await duck.one<{ t: string }>("SELECT current_setting('threads') AS t")).t;
    await duck.run('SET threads = 1');
    try {
      await runSegmentModel(duck, 'segment_stats', params);
    } finally {
      await duck.run(`SET threads = ${Number(threads)}`);
    }
    await runSegmentModel(duck, 'segment_quota', params);
    step('segments labelled');
    const n = await computeCharacteristics(duck);
    step(`characteristics of ${n.toLocaleString('en-US')} segments`);
    await runSegmentModel(duck, 'segments', params);
  } finally {
    for (const t of WORK_TABLES) await duck.run(`DROP TABLE IF EXISTS ${t}`);
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

/**
 * Streams every segment's returns and appends the SPEC §7 characteristics of each labelled one into
 * `segment_characteristics`. segment_steps is stored sorted by (series_key, segment, step) and DuckDB
 * preserves insertion order, so a plain scan arrives in order without another sort of the panel; the
 * order is checked as it streams, and an out-of-order scan falls back to an ORDER BY query. Returns
 * are copied into one reused buffer: memory stays at one segment plus one Arrow batch.
 */
async function computeCharacteristics(duck: Duck): Promise<number> {
  const ordOf = new Map<number, number>();
  await streamArrow(duck, 'SELECT series_key, segment, seg_ord FROM segment_stats', undefined, (batch) => {
    const k = batch.getChild('series_key')?.toArray() as Float64Array;
    const g = batch.getChild('segment')?.toArray() as Float64Array;
    const o = batch.getChild('seg_ord')?.toArray() as Float64Array;
    for (let i = 0; i < k.length; i++) ordOf.set(segmentKey(k[i], g[i]), o[i]);
  });
  const scan = 'SELECT series_key, segment, step, ret FROM segment_steps WHERE ret IS NOT NULL';
  let results = await characteristicsOf(duck, scan, ordOf);
  if (!results) results = await characteristicsOf(duck, `${scan} ORDER BY series_key, segment, step`, ordOf);
  if (!results) throw new Error('segment_steps returns arrived out of order even with ORDER BY');
  await duck.run(
    `CREATE OR REPLACE TABLE segment_characteristics (seg_ord BIGINT, adf_stat DOUBLE, adf_used_lag INTEGER,
       adf_nobs INTEGER, acf1 DOUBLE, forecastability DOUBLE)`,
  );
  const appender = await duck.openAppender('segment_characteristics', [
    BIGINT,
    DOUBLE,
    INTEGER,
    INTEGER,
    DOUBLE,
    DOUBLE,
  ]);
  for (const r of results) appender.push(r);
  appender.close();
  return results.length;
}

type CharacteristicsRow = [bigint, number, number, number, number, number];

/** The characteristics rows of one ordered scan, or null when the scan was not in (key, step) order. */
async function characteristicsOf(
  duck: Duck,
  sql: string,
  ordOf: Map<number, number>,
): Promise<CharacteristicsRow[] | null> {
  const out: CharacteristicsRow[] = [];
  let buf = new Float64Array(1024);
  let len = 0;
  let current = -1;
  let lastStep = -1;
  let ordered = true;
  const flush = () => {
    const ord = ordOf.get(current);
    if (ord === undefined) return; // a partial segment: not labelled, no characteristics
    const c = sequenceCharacteristics(buf.subarray(0, len));
    out.push([BigInt(ord), c.adfStat, c.adfUsedLag, c.adfNobs, c.acf1, c.forecastability]);
  };
  await streamArrow(duck, sql, undefined, (batch) => {
    if (!ordered) return;
    const k = batch.getChild('series_key')?.toArray() as Float64Array;
    const g = batch.getChild('segment')?.toArray() as Float64Array;
    const step = batch.getChild('step')?.toArray() as Float64Array;
    const ret = batch.getChild('ret')?.toArray() as Float64Array;
    for (let i = 0; i < k.length; i++) {
      const key = segmentKey(k[i], g[i]);
      if (key !== current) {
        if (key < current) {
          ordered = false;
          return;
        }
        if (current >= 0) flush();
        current = key;
        len = 0;
      } else if (step[i] <= lastStep) {
        ordered = false;
        return;
      }
      lastStep = step[i];
      if (len === buf.length) {
        const bigger = new Float64Array(buf.length * 2);
        bigger.set(buf);
        buf = bigger;
      }
      buf[len++] = ret[i];
    }
  });
  if (!ordered) return null;
  if (current >= 0) flush();
  return out;
}
