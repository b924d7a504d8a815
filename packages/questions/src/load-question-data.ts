import { type Duck, listValue, loadQuery, quoteLiteral, streamNumbers } from '@asof/duck';
import type { VerifiedManifest } from '@asof/manifest';
import { InputError } from '@asof/schema';

export const SQL_DIR = new URL('../sql/', import.meta.url);

export type SeriesRole = 'close' | 'macro' | 'fund';

/** One question series: its periods in time order, each with its first release and latest value at r. */
export interface SeriesPoints {
  seriesId: string;
  title: string;
  frequency: string;
  source: string;
  entityId: string;
  role: SeriesRole;
  fundMetric: string | null;
  /** Period timestamps, epoch µs, ascending. */
  ts: Float64Array;
  firstValue: Float64Array;
  firstAt: Float64Array;
  /** NaN when the latest row is a withdrawal. */
  latestValue: Float64Array;
  latestAt: Float64Array;
}

/** An entity's membership span as the universe resolved it (member_spans.parquet; null ends are open). */
export interface MemberSpan {
  from: number | null;
  to: number | null;
  member: boolean;
}

export interface QuestionData {
  series: SeriesPoints[];
  /** entity_id → its spans; an entity without spans is a member throughout (as splits read it). */
  spans: Map<string, MemberSpan[]>;
  observationFiles: string[];
}

/**
 * Reads what questions are generated from, through the files the verified manifest lists: the question
 * series (question_series.sql), their first releases and latest values as known at `runDate`
 * (question_points.sql) and the membership spans.
 */
export async function loadQuestionData(
  duck: Duck,
  verified: VerifiedManifest,
  runDate: string,
): Promise<QuestionData> {
  const observationFiles = verified.readPaths('observations');
  const seriesFile = verified.readPaths('series')[0];
  if (verified.manifest.kind !== 'universe' || observationFiles.length === 0 || seriesFile === undefined) {
    throw new InputError(
      'QUESTIONS_NOT_A_UNIVERSE',
      `${verified.manifest.name}: ${verified.manifest.kind === 'universe' ? 'the manifest lists no observations or no series file' : `a ${verified.manifest.kind} manifest, not a universe's`}; pass the manifest.json of a folder 'asof build' wrote (README "Questions for model cutoffs")`,
    );
  }
  await duck.createTable('question_series', loadQuery(SQL_DIR, 'question_series'), {
    series_file: seriesFile,
  });
  await duck.createTable('question_points', loadQuery(SQL_DIR, 'question_points'), {
    observation_files: listValue(observationFiles),
    run_date: runDate,
  });
  const meta = await duck.all<{
    series_id: string;
    title: string | null;
    frequency: string;
    source: string;
    entity_id: string;
    role: SeriesRole;
    fund_metric: string | null;
    n: bigint;
  }>(
    `SELECT s.*, count(p.ts) AS n FROM question_series AS s LEFT JOIN question_points AS p USING (series_id)
     GROUP BY ALL ORDER BY s.series_id`,
  );
  const series: SeriesPoints[] = meta.map((m) => {
    const n = Number(m.n);
    return {
      seriesId: m.series_id,
      title: m.title ?? m.series_id,
      frequency: m.frequency,
      source: m.source,
      entityId: m.entity_id,
      role: m.role,
      fundMetric: m.fund_metric,
      ts: new Float64Array(n),
      firstValue: new Float64Array(n),
      firstAt: new Float64Array(n),
      latestValue: new Float64Array(n),
      latestAt: new Float64Array(n),
    };
  });
  let s = 0;
  let i = 0;
  const advance = () => {
    while (s < series.length && i >= series[s].ts.length) {
      s++;
      i = 0;
    }
  };
  advance();
  // Rows arrive ordered by series_id, ts: the same order as `series`, so each fills the next free slot.
  await streamNumbers(
    duck,
    `SELECT ts, first_value, first_at, coalesce(latest_value, 'NaN'::DOUBLE), latest_at
     FROM question_points ORDER BY series_id, ts`,
    undefined,
    (columns, rows) => {
      for (let r = 0; r < rows; r++) {
        const p = series[s];
        p.ts[i] = columns[0][r];
        p.firstValue[i] = columns[1][r];
        p.firstAt[i] = columns[2][r];
        p.latestValue[i] = columns[3][r];
        p.latestAt[i] = columns[4][r];
        i++;
        advance();
      }
    },
  );
  return { series, spans: await loadSpans(duck, verified), observationFiles };
}

async function loadSpans(duck: Duck, verified: VerifiedManifest): Promise<Map<string, MemberSpan[]>> {
  const spans = new Map<string, MemberSpan[]>();
  const file = verified.readPaths('member_spans')[0];
  if (file === undefined) return spans;
  const rows = await duck.all<{ entity_id: string; from: number | null; to: number | null; member: boolean }>(
    `SELECT entity_id, epoch_us("from")::DOUBLE AS "from", epoch_us("to")::DOUBLE AS "to", member
     FROM read_parquet(${quoteLiteral(file)}) ORDER BY entity_id, "from" NULLS FIRST`,
  );
  for (const r of rows) {
    const list = spans.get(r.entity_id) ?? [];
    list.push({ from: r.from, to: r.to, member: r.member });
    spans.set(r.entity_id, list);
  }
  return spans;
}

/** The entity was a member at `t` (as splits decide, origin_candidates.sql): no span names it, or one covering t says so. */
export function isMemberAt(spans: Map<string, MemberSpan[]>, entityId: string, t: number): boolean {
  const list = spans.get(entityId);
  if (list === undefined) return true;
  const covering = list.find((s) => (s.from === null || s.from <= t) && (s.to === null || t < s.to));
  return covering === undefined ? true : covering.member;
}
