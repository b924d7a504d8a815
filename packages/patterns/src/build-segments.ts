import { type Duck, withThreads } from '@asof/duck';
import { AsofError, commandSeconds, InputError } from '@asof/schema';
import { measureSegments } from './measure-segments.ts';
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
  'segment_tallies',
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
  const step = (what: string) => log(`[segments ${commandSeconds().toFixed(1)}s] ${what}`);
  try {
    // The characteristics, the counts' numbers and the outliers, from each segment's placed rows in one
    // pass (docs/decisions/0035).
    const n = await measureSegments(duck, params, options.pool ?? options.workers ?? 'auto');
    step(`characteristics of ${n.toLocaleString('en-US')} segments`);
    await runSegmentModel(duck, 'segment_counts', params);
    // segment_stats sums the runs' severities on one thread, which keeps its windows' and aggregates'
    // order, and so the Parquet bytes, the same.
    await withThreads(
      duck,
      () => 1,
      () => runSegmentModel(duck, 'segment_stats', params),
    );
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
 * (measureSegments) and segment_counts' must agree. A gap would leave a label computed from NULLs.
 */
async function assertMomentsCovered(duck: Duck): Promise<void> {
  const r = await duck.one<{ n: bigint }>('SELECT count(*) AS n FROM segment_stats WHERE ret_mean IS NULL');
  if (Number(r.n) > 0) {
    throw new AsofError(
      'SEGMENT_MOMENTS_MISSING',
      `segment_stats: ${r.n} labelled segments have no return moments in segment_characteristics (expected 0): segment_counts' size rule and measureSegments' disagree, a bug in @asof/patterns`,
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
      `downShare ${p.down_share} must be below upShare ${p.up_share} (defaults 0.45 and 0.55, docs/glossary.md: FinTSB movement patterns)`,
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
