import { periodLabel } from '@asof/calendar';
import { Duck, quoteLiteral } from '@asof/duck';
import type { VerifiedManifest } from '@asof/manifest';
import { InputError, requireKnownNames } from '@asof/schema';
import { createDiffTable } from './run-diff-model.ts';

/** The kinds of row change diff_rows.sql tells apart. */
export const CHANGE_KINDS = [
  'new_observation',
  'revision',
  'withdrawal',
  'restatement',
  'rewritten',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface ChangeCounts {
  new_observations: number;
  /** Distinct available_at of the rows B adds to a series. */
  new_vintages: number;
  revisions: number;
  withdrawals: number;
  /** Values changed between two downloads of a vendor file without revision dates. */
  restatements: number;
  /** Rows A had recorded that B changed or lost (history rewritten). */
  rewritten: number;
}

/** One changed value: what it was (A's row, or the previous row in B) and what B has. */
export interface RowChange {
  period: string;
  timestamp: string;
  old_value: number | null;
  old_available_at: string | null;
  new_value: number | null;
  new_available_at: string | null;
  source_ref: string;
}

export interface SeriesDiff {
  series_id: string;
  source: string;
  frequency: string;
  status: 'new' | 'removed' | 'changed';
  /** Observation rows of the series in A and in B. */
  a_rows: number;
  b_rows: number;
  counts: ChangeCounts;
  /** Up to `limit` examples per kind, earliest first (all when limit is 0). */
  changes: Partial<Record<ChangeKind, RowChange[]>>;
}

export interface SourceDiff extends ChangeCounts {
  source: string;
  new_series: number;
  removed_series: number;
  changed_series: number;
}

export interface UniverseDiff {
  a: { dataset_id: string; manifest: string };
  b: { dataset_id: string; manifest: string };
  series_filter: string[];
  sources: SourceDiff[];
  series: SeriesDiff[];
  totals: SourceDiff;
}

export interface DiffOptions {
  /** Series id globs (`fred:*`, `px:AAPL:*`); none = every series. */
  series?: readonly string[];
  /** Examples per series and kind (default 20; 0 = all). */
  limit?: number;
  threads?: number;
}

const COUNT_KEYS: Record<ChangeKind, keyof ChangeCounts> = {
  new_observation: 'new_observations',
  revision: 'revisions',
  withdrawal: 'withdrawals',
  restatement: 'restatements',
  rewritten: 'rewritten',
};

const zero = (): ChangeCounts => ({
  new_observations: 0,
  new_vintages: 0,
  revisions: 0,
  withdrawals: 0,
  restatements: 0,
  rewritten: 0,
});

function requireUniverse(v: VerifiedManifest): void {
  if (v.manifest.kind !== 'universe') {
    throw new InputError(
      'NOT_A_UNIVERSE',
      `${v.label}: manifest kind is '${v.manifest.kind}'; asof diff compares two universes built with 'asof build' or 'asof update'`,
      { context: { file: v.label, value: v.manifest.kind } },
    );
  }
}

/** A glob filter on series_id with its patterns bound as parameters. */
function seriesFilter(globs: readonly string[]): { where: string; params: Record<string, string> } {
  if (globs.length === 0) return { where: 'true', params: {} };
  const params = Object.fromEntries(globs.map((g, i) => [`g${i}`, g]));
  return { where: globs.map((_, i) => `series_id GLOB $g${i}`).join(' OR '), params };
}

/**
 * What changed from universe A to universe B (both verified and held open by the caller, who rechecks them
 * after): per series and per source, new and removed series, new observations and vintages, revisions
 * (old → new with both available_at), withdrawals, vendor restatements without a vintage and rewritten
 * history (sql/diff_series.sql, sql/diff_rows.sql).
 */
export async function diffUniverses(
  a: VerifiedManifest,
  b: VerifiedManifest,
  options: DiffOptions = {},
): Promise<UniverseDiff> {
  requireUniverse(a);
  requireUniverse(b);
  const globs = [...(options.series ?? [])];
  const limit = options.limit ?? 20;
  const duck = await Duck.open({ threads: options.threads ?? 2 });
  try {
    if (globs.length > 0) {
      // A --series that names nothing in either universe is a typo, not "no differences" (audit 9.6).
      const ids = await duck.all<{ series_id: string }>(
        `SELECT DISTINCT series_id FROM read_parquet([${quoteLiteral(a.readPaths('series')[0])}, ${quoteLiteral(b.readPaths('series')[0])}]) ORDER BY series_id`,
      );
      requireKnownNames(
        globs,
        ids.map((r) => r.series_id),
        {
          flag: '--series',
          kind: 'series',
          where: a.label === b.label ? a.label : `${a.label} or ${b.label}`,
          code: 'DIFF_SERIES_UNKNOWN',
          listHint: `list series with 'asof series --data <universe folder> --search TEXT'; globs as fred:*, px:AAPL:*`,
          globs: true,
        },
      );
    }
    const filter = seriesFilter(globs);
    for (const [side, v] of [
      ['a', a],
      ['b', b],
    ] as const) {
      await duck.run(
        `CREATE TABLE ${side}_series AS SELECT * FROM read_parquet(${quoteLiteral(v.readPaths('series')[0])}) WHERE ${filter.where}`,
        filter.params,
      );
      const files = v.readPaths('observations').map(quoteLiteral).join(', ');
      await duck.run(
        `CREATE VIEW ${side}_obs AS SELECT * FROM read_parquet([${files}]) WHERE series_id IN (SELECT series_id FROM ${side}_series)`,
      );
    }
    await createDiffTable(duck, 'diff_series');
    await createDiffTable(duck, 'diff_rows');
    const series = await seriesDiffs(duck, limit);
    const sources = sourceDiffs(series);
    return {
      a: { dataset_id: a.manifest.dataset_id, manifest: a.label },
      b: { dataset_id: b.manifest.dataset_id, manifest: b.label },
      series_filter: globs,
      sources,
      series,
      totals: { source: 'all', ...sumSources(sources) },
    };
  } finally {
    duck.close();
  }
}

async function seriesDiffs(duck: Duck, limit: number): Promise<SeriesDiff[]> {
  const listed = await duck.all<{
    series_id: string;
    status: 'new' | 'removed' | 'common';
    source: string;
    frequency: string;
    fiscal_year_end: string | null;
    a_rows: bigint;
    b_rows: bigint;
  }>(
    `SELECT s.* FROM diff_series AS s
     WHERE s.status <> 'common' OR s.series_id IN (SELECT series_id FROM diff_rows)
     ORDER BY s.series_id`,
  );
  const counts = await duck.all<{ series_id: string; kind: ChangeKind; n: bigint; vintages: bigint }>(
    `SELECT series_id, kind, count(*) AS n, count(DISTINCT new_available_at) AS vintages
     FROM diff_rows GROUP BY series_id, kind`,
  );
  const vintages = await duck.all<{ series_id: string; n: bigint }>(
    `SELECT series_id, count(DISTINCT new_available_at) AS n FROM diff_rows WHERE side = 'b' GROUP BY series_id`,
  );
  const examples = await duck.all<{
    series_id: string;
    kind: ChangeKind;
    ts: bigint;
    timestamp: string;
    old_value: number | null;
    old_available_at: string | null;
    new_value: number | null;
    new_available_at: string | null;
    source_ref: string;
  }>(
    `SELECT series_id, kind, epoch_us("timestamp") AS ts, iso_instant("timestamp") AS "timestamp",
            old_value, iso_instant(old_available_at) AS old_available_at, new_value,
            iso_instant(new_available_at) AS new_available_at, source_ref
     FROM diff_rows
     QUALIFY $limit = 0 OR row_number() OVER (PARTITION BY series_id, kind ORDER BY "timestamp", available_at) <= $limit
     ORDER BY series_id, kind, "timestamp", available_at`,
    { limit },
  );
  const byId = new Map<string, SeriesDiff & { fye: string | null }>();
  for (const s of listed) {
    byId.set(s.series_id, {
      series_id: s.series_id,
      source: s.source,
      frequency: s.frequency,
      status: s.status === 'common' ? 'changed' : s.status,
      a_rows: Number(s.a_rows),
      b_rows: Number(s.b_rows),
      counts: zero(),
      changes: {},
      fye: s.fiscal_year_end,
    });
  }
  for (const c of counts) {
    const s = byId.get(c.series_id);
    if (s) s.counts[COUNT_KEYS[c.kind]] = Number(c.n);
  }
  for (const v of vintages) {
    const s = byId.get(v.series_id);
    if (s) s.counts.new_vintages = Number(v.n);
  }
  for (const e of examples) {
    const s = byId.get(e.series_id);
    if (!s) continue;
    const list = s.changes[e.kind] ?? [];
    list.push({
      period: periodLabel(Number(e.ts), s.frequency, s.fye),
      timestamp: e.timestamp,
      old_value: e.old_value,
      old_available_at: e.old_available_at,
      new_value: e.new_value,
      new_available_at: e.new_available_at,
      source_ref: e.source_ref,
    });
    s.changes[e.kind] = list;
  }
  return [...byId.values()].map(({ fye: _, ...s }) => s);
}

function sumSources(list: readonly SourceDiff[]): Omit<SourceDiff, 'source'> {
  const t = { ...zero(), new_series: 0, removed_series: 0, changed_series: 0 };
  for (const s of list) for (const k of Object.keys(t) as (keyof typeof t)[]) t[k] += s[k];
  return t;
}

function sourceDiffs(series: readonly SeriesDiff[]): SourceDiff[] {
  const by = new Map<string, SourceDiff>();
  for (const s of series) {
    const d = by.get(s.source) ?? {
      source: s.source,
      ...zero(),
      new_series: 0,
      removed_series: 0,
      changed_series: 0,
    };
    if (s.status === 'new') d.new_series++;
    else if (s.status === 'removed') d.removed_series++;
    else d.changed_series++;
    for (const k of Object.keys(s.counts) as (keyof ChangeCounts)[]) d[k] += s.counts[k];
    by.set(s.source, d);
  }
  return [...by.values()].sort((x, y) => (x.source < y.source ? -1 : 1));
}
