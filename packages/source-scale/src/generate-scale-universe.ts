import { DOUBLE, type Duck, INTEGER, loadQuery, type Params, pickUsedParams, VARCHAR } from '@asof/duck';
import { InputError } from '@asof/schema';
import type { Registry } from '@asof/taxonomy';
import { readScaleShape, type ScaleShapeRow } from './read-scale-shape.ts';
import type { ScaleConfig } from './scale-config.ts';

/**
 * Keys of the scale source in stg_keys start here, far above the keys StageSink hands out from 0, so
 * both can feed one build.
 */
export const SCALE_KEY_OFFSET = 1_000_000_000;
/** stage_seq of scale rows starts here, after anything a sink emits in the same build. */
export const SCALE_SEQ_OFFSET = 1e12;

const BASES = ['bar_close', 'vintage', 'filing'];
const REFS = ['scale:bar', 'scale:release', 'scale:revised', 'scale:10-Q', 'scale:restated'];
const SQL_DIR = new URL('../sql/', import.meta.url);

export type ScaleKind = 'bar' | 'volume' | 'macro' | 'fundamental';

/** How a unit's series behave: market bars, traded volumes, macro releases, company filings. */
export function scaleKind(row: Pick<ScaleShapeRow, 'category' | 'detail_category' | 'frequency'>): ScaleKind {
  if (row.category === 'Fundamentals') return 'fundamental';
  if (/Volume|TVL/.test(row.detail_category)) return 'volume';
  if (row.frequency === 'BD' || row.frequency === 'D') return 'bar';
  return 'macro';
}

/** Step volatility of log levels per kind and frequency. */
function sigmaOf(kind: ScaleKind, frequency: string): number {
  if (kind === 'fundamental') return 0.05;
  if (kind !== 'macro') return 0.015;
  return { W: 0.01, M: 0.01, Q: 0.02, A: 0.03 }[frequency] ?? 0.01;
}

function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export interface ScaleUnitPlan extends ScaleShapeRow {
  kind: ScaleKind;
  /** round(series × scale), at least 1. */
  n_series: number;
  /** FinVerse points per series: the mean history length. */
  mean_len: number;
}

/** The per-unit plan of a scale universe: which units, how many series, how long. */
export function planScaleUniverse(scale: number, shape: ScaleShapeRow[] = readScaleShape()): ScaleUnitPlan[] {
  return shape.map((row) => ({
    ...row,
    kind: scaleKind(row),
    n_series: Math.max(1, Math.round(row.series * scale)),
    mean_len: row.points / row.series,
  }));
}

const DAY_MS = 86_400_000;

/** Anchors of each frequency's grid: the last period end on or before `end` (YYYY-MM-DD). */
export function scaleAnchors(end: string): Params {
  const endMs = Date.parse(`${end}T00:00:00Z`);
  const endDay = Math.floor(endMs / DAY_MS);
  const dow = (d: number) => (new Date(d * DAY_MS).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  let bd = endDay;
  while (dow(bd) > 4) bd--;
  let w = endDay;
  while (dow(w) !== 4) w--;
  const e = new Date(endMs);
  const y = e.getUTCFullYear();
  const m = e.getUTCMonth(); // 0-based
  const isMonthEnd = new Date(Date.UTC(y, m, e.getUTCDate() + 1)).getUTCDate() === 1;
  // First day of the month whose last day is the anchor (the last complete month, quarter, year).
  const lastMonth = isMonthEnd ? m : m - 1;
  const first = (yy: number, mm: number) => new Date(Date.UTC(yy, mm, 1)).toISOString().slice(0, 10);
  const lastQuarterMonth = lastMonth - ((((lastMonth + 1) % 3) + 3) % 3);
  const lastYear = lastMonth === 11 ? y : y - 1;
  return {
    bd_anchor: bd,
    bd_pos: dow(bd),
    d_anchor: endDay,
    w_anchor: w,
    m_first: first(y, lastMonth),
    q_first: first(y, lastQuarterMonth),
    a_first: first(lastYear, 11),
  };
}

function sql(name: string): string {
  return loadQuery(SQL_DIR, name);
}

/**
 * Generates the scale universe (SPEC §12) inside DuckDB: stg_series, stg_keys and stg_observations
 * rows from SQL alone (range() and hash() of seed, series and step; no row passes through JavaScript).
 * Deterministic at any thread count. Needs the staging tables of @asof/transform.
 */
export async function generateScaleUniverse(
  duck: Duck,
  config: ScaleConfig,
  registry: Registry,
): Promise<{ series: number; rows: number }> {
  const plan = planScaleUniverse(config.scale);
  const known = new Set(
    registry.units.map((u) => `${u.scope}|${u.category}|${u.detail_category}|${u.frequency}`),
  );
  for (const u of plan) {
    const key = `${u.scope}|${u.category}|${u.detail_category}|${u.frequency}`;
    if (!known.has(key)) {
      throw new InputError(
        'SCALE_UNIT_UNKNOWN',
        `scale universe unit ${key} is not in the taxonomy registry; add it to units.tsv or remove it from data/finverse-shape.tsv`,
      );
    }
  }
  let first = 0;
  const cols: (string | number)[][] = Array.from({ length: 13 }, () => []);
  plan.forEach((u, idx) => {
    const row = [
      idx,
      first,
      u.n_series,
      u.scope,
      u.category,
      u.detail_category,
      u.frequency,
      u.kind,
      u.mean_len,
      sigmaOf(u.kind, u.frequency),
      `${slugOf(u.category)}-${slugOf(u.detail_category)}-${u.frequency.toLowerCase()}`,
      slugOf(u.category),
      0,
    ];
    row.forEach((v, c) => {
      cols[c].push(v);
    });
    first += u.n_series;
  });
  const unitTypes = [
    INTEGER,
    INTEGER,
    INTEGER,
    VARCHAR,
    VARCHAR,
    VARCHAR,
    VARCHAR,
    VARCHAR,
    DOUBLE,
    DOUBLE,
    VARCHAR,
    VARCHAR,
  ];
  await duck.run(
    `CREATE OR REPLACE TEMP TABLE scale_units (unit_idx INTEGER, first_idx INTEGER, n_series INTEGER, scope VARCHAR,
      category VARCHAR, detail_category VARCHAR, frequency VARCHAR, kind VARCHAR, mean_len DOUBLE, sigma DOUBLE,
      slug VARCHAR, entity_slug VARCHAR)`,
  );
  await duck.appendColumns('scale_units', unitTypes, cols.slice(0, 12));
  const seed = { seed: BigInt(config.seed) };
  await duck.createTable('scale_series', sql('scale_series'), seed);

  await duck.run(
    `INSERT INTO stg_series SELECT series_id, source, source_key, title, unit, frequency, scope, category,
       detail_category, entity_id, entity_name, currency, seasonal_adjustment, fiscal_year_end, true, 'point_in_time',
       CAST($seq_offset AS BIGINT) + series_idx FROM scale_series`,
    { seq_offset: BigInt(SCALE_SEQ_OFFSET) },
  );
  await duck.run(
    `INSERT INTO stg_keys SELECT 'series', series_idx + $key_offset, series_id FROM scale_series`,
    { key_offset: SCALE_KEY_OFFSET },
  );
  const keys = [
    ...BASES.map((t, i) => ['basis', SCALE_KEY_OFFSET + i, t]),
    ...REFS.map((t, i) => ['ref', SCALE_KEY_OFFSET + i, t]),
  ];
  await duck.appendColumns(
    'stg_keys',
    [VARCHAR, INTEGER, VARCHAR],
    [keys.map((k) => k[0]), keys.map((k) => k[1]), keys.map((k) => k[2])],
  );

  const before = await countRows(duck);
  const params: Params = {
    ...seed,
    ...scaleAnchors(config.end),
    key_offset: SCALE_KEY_OFFSET,
    seq_offset: SCALE_SEQ_OFFSET,
    revision_share: config.revision_share,
    restatement_share: config.restatement_share,
  };
  // Row order of the staging table does not matter (every model orders explicitly), so DuckDB may insert
  // in whatever order its threads finish — this lets the window stream and spill instead of buffering.
  const order = await duck.one<{ v: boolean }>(
    "SELECT CAST(current_setting('preserve_insertion_order') AS BOOLEAN) AS v",
  );
  await duck.run('SET preserve_insertion_order = false');
  try {
    await insertModel(duck, 'scale_observations', params);
    await insertModel(duck, 'scale_revisions', params);
  } finally {
    await duck.run(`SET preserve_insertion_order = ${order.v ? 'true' : 'false'}`);
    await duck.run('DROP TABLE IF EXISTS scale_units');
    await duck.run('DROP TABLE IF EXISTS scale_series');
  }
  const after = await countRows(duck);
  return { series: first, rows: after - before };
}

async function insertModel(duck: Duck, name: string, params: Params): Promise<void> {
  const query = sql(name);
  await duck.run(`INSERT INTO stg_observations ${query}`, pickUsedParams(query, params));
}

async function countRows(duck: Duck): Promise<number> {
  return Number((await duck.one<{ n: bigint }>('SELECT count(*) AS n FROM stg_observations')).n);
}
