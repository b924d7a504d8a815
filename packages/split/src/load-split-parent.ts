// The parent universe as a split reads it: exactly the files its verified manifest lists.
import { type Duck, quoteLiteral } from '@asof/duck';
import type { VerifiedManifest } from '@asof/manifest';
import { type Frequency, InputError } from '@asof/schema';
import {
  refuseEmptyFilter,
  requireFilterNames,
  type SeriesFilters,
  seriesFilterSql,
} from './series-filter-sql.ts';

/** The frequency partition of an observations file, from the path the manifest lists (frequency=<F>/…). */
function frequencyOfPath(path: string): string {
  const m = /(?:^|\/)frequency=([A-Z]+)\//.exec(path);
  if (!m) {
    throw new InputError(
      'PARENT_INCOMPLETE',
      `observations file ${path} is not under a frequency=<F>/ folder; a split needs a universe built by 'asof build'`,
      { context: { file: path } },
    );
  }
  return m[1];
}

export async function loadParent(
  duck: Duck,
  verified: VerifiedManifest,
  horizons: Record<Frequency, { prediction_length: number; lookback: number }>,
  filters: SeriesFilters,
): Promise<void> {
  const obsFiles = verified.files('observations');
  const seriesFile = verified.files('series')[0];
  if (obsFiles.length === 0 || !seriesFile) {
    throw new InputError(
      'PARENT_INCOMPLETE',
      `${verified.label} lists ${obsFiles.length} observation files and ${seriesFile ? 'a' : 'no'} series file; a split needs a universe built by 'asof build'`,
    );
  }
  // Only the files the verified manifest lists, read through the descriptors that were hashed (never a
  // glob over whatever else lies in the folder); the frequency comes from each file's listed path.
  const observationsOf = (files: typeof obsFiles) =>
    files
      .map(
        (
          f,
        ) => `SELECT series_id, ${quoteLiteral(frequencyOfPath(f.output.path))} AS frequency, "timestamp", period_start,
                available_at, value, available_at_basis, source_ref FROM read_parquet(${quoteLiteral(f.readPath)})`,
      )
      .join('\n     UNION ALL ');
  await duck.run(`CREATE VIEW split_observations AS\n     ${observationsOf(obsFiles)}`);
  await requireFilterNames(duck, seriesFile.readPath, filters, verified.label);
  const filter = seriesFilterSql(filters);
  await duck.run(
    `CREATE TABLE split_series AS SELECT * FROM read_parquet(${quoteLiteral(seriesFile.readPath)}) WHERE ${filter.sql}`,
    Object.keys(filter.params).length ? filter.params : undefined,
  );
  const kept = Number((await duck.one<{ n: bigint }>('SELECT count(*) AS n FROM split_series')).n);
  if (kept === 0) await refuseEmptyFilter(duck, seriesFile.readPath, filters, verified.label);
  // The files of the frequencies that hold a revised series: the per-timestamp work on revisions reads
  // these only (at FinVerse scale the BD and D bars, most rows, have none), so the training snapshot scans
  // the big files once instead of buffering every row for a second pass (train_observations.sql).
  const revised = new Set(
    (
      await duck.all<{ frequency: string }>(
        'SELECT DISTINCT frequency FROM split_series WHERE n_revisions > 0',
      )
    ).map((r) => r.frequency),
  );
  const revisedFiles = obsFiles.filter((f) => revised.has(frequencyOfPath(f.output.path)));
  await duck.run(
    `CREATE VIEW split_revised_observations AS\n     ${
      revisedFiles.length > 0 ? observationsOf(revisedFiles) : 'SELECT * FROM split_observations WHERE false'
    }`,
  );
  // Membership (docs/decisions/0021): the resolved spans decide which origins are served; the evidence rows
  // of the split's entities go into the split. A universe built before membership has neither: everyone is
  // a member.
  const spansFile = verified.files('member_spans')[0];
  await duck.run(
    spansFile
      ? `CREATE TABLE split_member_spans AS SELECT * FROM read_parquet(${quoteLiteral(spansFile.readPath)})
         WHERE entity_id IN (SELECT entity_id FROM split_series)`
      : 'CREATE TABLE split_member_spans (entity_id VARCHAR, "from" TIMESTAMPTZ, "to" TIMESTAMPTZ, member BOOLEAN)',
  );
  const membershipFile = verified.files('membership')[0];
  if (membershipFile) {
    await duck.run(
      `CREATE TABLE split_membership AS SELECT * FROM read_parquet(${quoteLiteral(membershipFile.readPath)})
       WHERE entity_id IN (SELECT entity_id FROM split_series)`,
    );
  }
  const tasksFile = verified.files('tasks')[0];
  if (tasksFile) {
    await duck.run(
      `CREATE TABLE parent_tasks AS SELECT * FROM read_parquet(${quoteLiteral(tasksFile.readPath)})`,
    );
  }
  await duck.run(
    'CREATE TABLE split_horizons (frequency VARCHAR, horizon_steps INTEGER, lookback_steps INTEGER)',
  );
  for (const [frequency, h] of Object.entries(horizons)) {
    await duck.run('INSERT INTO split_horizons VALUES ($f, $h, $l)', {
      f: frequency,
      h: h.prediction_length,
      l: h.lookback,
    });
  }
}
