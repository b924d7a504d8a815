import { DOUBLE, type Duck, INTEGER, streamArrow, streamNumbers } from '@asof/duck';
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
const WORK_TABLES = [
  'segment_steps',
  'segment_stats',
  'segment_members',
  'segment_quota',
  'segment_characteristics',
];

/**
 * Builds the DuckDB table `segments` (SPEC §7) from the universe's `observations` (latest view) and
 * `series` tables: calendar-aligned segments per frequency, threshold and quota labels (SQL models in
 * ../sql), and the sequence characteristics of each segment's returns (TypeScript, over Arrow batches).
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
    // Float sums (mean, std, severity) depend on summation order; one thread over the sorted
    // segment_steps table makes that order — and so the Parquet bytes — the same on every run.
    // The characteristics (TypeScript, one core) stream on a second connection meanwhile, so the two
    // single-threaded parts share the machine's cores instead of running one after the other.
    const threads = (await duck.one<{ t: string }>("SELECT current_setting('threads') AS t")).t;
    await duck.run('SET threads = 1');
    const reader = await duck.connect();
    let n = 0;
    try {
      const stats = runSegmentModel(duck, 'segment_stats', params);
      // Wait for both before leaving: a rejected stats query must not be left running on the instance.
      const [, counted] = await Promise.allSettled([stats, computeCharacteristics(reader, params)]).then(
        (results) => {
          for (const r of results) if (r.status === 'rejected') throw r.reason;
          return results.map((r) => (r as PromiseFulfilledResult<unknown>).value);
        },
      );
      n = counted as number;
    } finally {
      reader.close();
      await duck.run(`SET threads = ${Number(threads)}`);
    }
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
    step(`segments labelled; characteristics of ${n.toLocaleString('en-US')} segments`);
    await runSegmentModel(duck, 'segments', params);
  } finally {
    for (const t of WORK_TABLES) await duck.run(`DROP TABLE IF EXISTS ${t}`);
  }
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
 * Streams every segment's returns and appends the SPEC §7 characteristics of each one segment_stats can
 * label into `segment_characteristics`, keyed (series_key, segment). It runs beside segment_stats, so
 * it applies the same size rule itself (n_steps = returns + 1 ≥ min_coverage · L and returns ≥
 * min_returns; every step but a segment's first has a return): segments keeps only the labelled ones
 * anyway (a left join), the rule just spares the work on partial segments. segment_steps is stored sorted
 * by (series_key, segment, step) and DuckDB preserves insertion order, so a plain scan arrives in order
 * without another sort of the panel; the order is checked as it streams, and an out-of-order scan falls
 * back to an ORDER BY query. Returns are copied into one reused buffer: memory stays at one segment plus
 * one Arrow batch.
 */
async function computeCharacteristics(duck: Duck, params: Record<string, number | string>): Promise<number> {
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
  await streamArrow(
    duck,
    'SELECT CAST(row_number() OVER (ORDER BY series_id) AS INTEGER) AS k, frequency FROM series',
    undefined,
    (batch) => {
      const k = batch.getChild('k')?.toArray() as Float64Array;
      const f = batch.getChild('frequency')?.toArray() as string[];
      for (let i = 0; i < k.length; i++) {
        minSteps[k[i]] = Math.max(
          Number(params.min_returns) + 1,
          Number(params.min_coverage) * (lengthOf[f[i]] ?? 0),
        );
      }
    },
  );
  const scan = 'SELECT series_key, segment, step, ret FROM segment_steps WHERE ret IS NOT NULL';
  let results = await characteristicsOf(duck, scan, minSteps);
  if (!results)
    results = await characteristicsOf(duck, `${scan} ORDER BY series_key, segment, step`, minSteps);
  if (!results) throw new Error('segment_steps returns arrived out of order even with ORDER BY');
  await duck.run(
    `CREATE OR REPLACE TABLE segment_characteristics (series_key INTEGER, segment INTEGER, adf_stat DOUBLE,
       adf_used_lag INTEGER, adf_nobs INTEGER, acf1 DOUBLE, forecastability DOUBLE)`,
  );
  const appender = await duck.openAppender('segment_characteristics', [
    INTEGER,
    INTEGER,
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

type CharacteristicsRow = [number, number, number, number, number, number, number];

/** The characteristics rows of one ordered scan, or null when the scan was not in (key, step) order. */
async function characteristicsOf(
  duck: Duck,
  sql: string,
  minSteps: readonly number[],
): Promise<CharacteristicsRow[] | null> {
  const out: CharacteristicsRow[] = [];
  let buf = new Float64Array(1024);
  let len = 0;
  let current = -1;
  let lastStep = -1;
  let ordered = true;
  const flush = () => {
    const [seriesKey, segment] = keyParts(current);
    if (len + 1 < (minSteps[seriesKey] ?? Number.POSITIVE_INFINITY)) return; // partial: never labelled
    const c = sequenceCharacteristics(buf.subarray(0, len));
    out.push([seriesKey, segment, c.adfStat, c.adfUsedLag, c.adfNobs, c.acf1, c.forecastability]);
  };
  // The query's columns, in order: series_key, segment, step, ret.
  await streamNumbers(duck, sql, undefined, ([k, g, step, ret], rows) => {
    if (!ordered) return;
    for (let i = 0; i < rows; i++) {
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
