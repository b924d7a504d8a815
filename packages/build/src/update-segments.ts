import { join } from 'node:path';
import { Duck, listValue, type Params, quoteLiteral } from '@asof/duck';
import { buildSegments, segmentParams } from '@asof/patterns';
import type { PipelineConfig } from './pipeline-config.ts';
import { updateModelSql } from './update-models.ts';

/**
 * The segments table of an update without recomputing every segment. A segment's statistics, label and
 * characteristics depend only on its own steps, and its quota label on its cross-section (the segments of
 * one detail category and frequency with the same index): so the segments before the first one any
 * changed row falls in, per frequency and detail category (update_segment_windows.sql), are OLD's; from
 * that segment on buildSegments recomputes them over every series of the family, in a DuckDB of its own
 * fed with exactly those segments' rows (one segment earlier too, as a margin, then dropped) and the new
 * member_spans. The acceptance test compares the bytes with a build's.
 */
export async function updateSegments(
  duck: Duck,
  o: {
    oldSegments: string[];
    oldObservations: string[];
    /** OLD's member_spans.parquet: quota labels rank members only (segment_members.sql). */
    oldSpans: string;
    work: string;
    config: PipelineConfig;
    log: (line: string) => void;
  },
): Promise<{ recomputed: Record<string, number> }> {
  const params = segmentParams();
  await duck.createTable('update_segment_windows', updateModelSql('update_segment_windows'), {
    ...pick(params, ['epoch', 'len_bd', 'len_d', 'len_w', 'len_m', 'len_q', 'len_a']),
    old_files: listValue(o.oldObservations),
    old_spans: o.oldSpans,
  });
  const windows = await duck.all<{ frequency: string; detail_category: string; first_segment: number }>(
    'SELECT frequency, detail_category, first_segment FROM update_segment_windows ORDER BY ALL',
  );
  const recomputed = Object.fromEntries(
    windows.map((w) => [`${w.frequency} ${w.detail_category}`, w.first_segment]),
  );
  const old = listValue(o.oldSegments);
  if (windows.length === 0) {
    await duck.run(
      'CREATE TABLE segments AS SELECT * FROM read_parquet($old) WHERE series_id IN (SELECT series_id FROM series)',
      { old },
    );
    return { recomputed };
  }
  const obsFile = join(o.work, 'segment-observations.parquet');
  const seriesFile = join(o.work, 'segment-series.parquet');
  const newFile = join(o.work, 'segment-recomputed.parquet');
  const spansFile = join(o.work, 'segment-member-spans.parquet');
  await duck.writeParquet(
    `SELECT o.series_id, o."timestamp", o.available_at, o.value FROM observations AS o
     JOIN series AS s USING (series_id)
     JOIN update_segment_windows AS w ON w.frequency = s.frequency AND w.detail_category = s.detail_category
     WHERE floor(grid_position(o."timestamp", o.frequency, $epoch::DATE) / w.segment_length) >= w.first_segment - 1
     ORDER BY o.series_id, o."timestamp", o.available_at`,
    obsFile,
    { epoch: params.epoch },
  );
  await duck.writeParquet(
    'SELECT series_id, frequency, detail_category, n_revisions, entity_id FROM series ORDER BY series_id',
    seriesFile,
  );
  await duck.writeParquet('SELECT * FROM member_spans ORDER BY entity_id, "from" NULLS FIRST', spansFile);
  const seg = await Duck.open({
    threads: o.config.duckdb.threads,
    memoryLimit: o.config.duckdb.memory_limit,
    memoryLimitSource: { field: 'duckdb.memory_limit' },
    tempDirectory: join(o.work, 'segment-spill'),
  });
  try {
    await seg.run(`CREATE TABLE observations AS SELECT * FROM read_parquet(${quoteLiteral(obsFile)})`);
    await seg.run(`CREATE TABLE series AS SELECT * FROM read_parquet(${quoteLiteral(seriesFile)})`);
    await seg.run(`CREATE TABLE member_spans AS SELECT * FROM read_parquet(${quoteLiteral(spansFile)})`);
    await buildSegments(seg, { log: o.log });
    await seg.writeParquet('SELECT * FROM segments ORDER BY series_id, segment', newFile);
  } finally {
    seg.close();
  }
  await duck.run(
    `CREATE TABLE segments AS
     SELECT * FROM read_parquet($old) AS s
     WHERE s.series_id IN (SELECT series_id FROM series)
       AND s.segment < coalesce((SELECT first_segment FROM update_segment_windows AS w
                                 WHERE w.frequency = s.frequency AND w.detail_category = s.detail_category), 2147483647)
     UNION ALL BY NAME
     SELECT r.* FROM read_parquet($recomputed) AS r
     JOIN update_segment_windows AS w ON w.frequency = r.frequency AND w.detail_category = r.detail_category
     WHERE r.segment >= w.first_segment`,
    { old, recomputed: newFile },
  );
  return { recomputed };
}

function pick(p: Record<string, number | string>, keys: string[]): Params {
  return Object.fromEntries(keys.map((k) => [k, p[k]]));
}
