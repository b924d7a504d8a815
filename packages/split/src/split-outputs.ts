// What a split writes: the Parquet files of each layout with their grain order, the ENUM codes the writes
// cast texts to, and the point-in-time membership beside them.
import { join } from 'node:path';
import {
  createTextEnum,
  type Duck,
  describeParquet,
  keyRanges,
  MAX_ROWS_PER_FILE,
  partPath,
  quoteIdent,
  quoteLiteral,
  sortWithCodes,
  type TextCodes,
} from '@asof/duck';
import { manifestOutput } from '@asof/manifest';
import { AVAILABLE_AT_BASES, type ManifestOutput } from '@asof/schema';
import type { Layout } from './split-models.ts';

export interface OutputSpec {
  path: string;
  /** The table name the manifest lists. */
  table: string;
  /** The DuckDB table written (default: `table`). */
  source?: string;
  /** Starts with series_key, which orders like series_id (series_keys.sql) and is not written. */
  orderBy: string;
  timeColumns?: [string, string | null];
  /** `key`, `n` rows per series_key, when a smaller table knows them (default: a count over `source`). */
  counts?: string;
}

export const outputsFor = (format: Layout, withTasks: boolean): OutputSpec[] => [
  ...(withTasks
    ? [
        {
          path: 'tasks.parquet',
          table: 'tasks',
          source: 'split_tasks',
          orderBy: 'series_key, aspect, metric, p, h',
        },
      ]
    : []),
  {
    path: 'train/observations.parquet',
    table: 'train_observations',
    orderBy: 'series_key, "timestamp"',
    timeColumns: ['timestamp', 'available_at'],
    // train_series.n_obs counts the snapshot's rows per series: no second pass over the view for the cut.
    counts: 'SELECT series_key AS key, n_obs AS n FROM train_series',
  },
  { path: 'train/series.parquet', table: 'train_series', orderBy: 'series_key' },
  {
    path: 'origins.parquet',
    table: 'origins',
    source: 'labelled_origins',
    orderBy: 'series_key, origin',
    timeColumns: ['origin', null],
  },
  {
    path: 'withdrawals.parquet',
    table: 'withdrawals',
    orderBy: 'series_key, "timestamp", available_at',
    timeColumns: ['timestamp', 'available_at'],
  },
  format === 'per_origin'
    ? {
        path: 'inputs.parquet',
        table: 'inputs',
        orderBy: 'series_key, origin, "timestamp"',
        timeColumns: ['timestamp', 'available_at'],
      }
    : {
        path: 'inputs.parquet',
        table: 'input_rows',
        orderBy: 'series_key, "timestamp", available_at',
        timeColumns: ['timestamp', 'available_at'],
      },
  format === 'per_origin'
    ? {
        path: 'targets.parquet',
        table: 'targets',
        orderBy: 'series_key, origin, step',
        timeColumns: ['timestamp', 'available_at'],
      }
    : {
        path: 'targets.parquet',
        table: 'target_rows',
        orderBy: 'series_key, step_index',
        timeColumns: ['timestamp', 'available_at'],
      },
];

/**
 * The text columns the split holds and sorts as ENUM codes, with the query giving every value each takes:
 * the split's series (series_keys), their frequencies, the parent's source_refs and the closed vocabulary of
 * available_at_basis. eval_observations stores basis and ref as codes (a table of strings costs most of its
 * insert), which the tables built from it inherit; the writes cast every one of these columns to its code
 * before their sort and back to VARCHAR after it (sortWithCodes), so the files hold the same text.
 */
const SPLIT_CODES: Record<string, [type: string, values: string]> = {
  series_id: ['asof_series_text', 'SELECT series_id FROM series_keys'],
  frequency: ['asof_frequency_text', 'SELECT frequency FROM series_keys'],
  source_ref: ['asof_ref_text', 'SELECT source_ref FROM split_observations'],
  available_at_basis: [
    'asof_basis_text',
    `SELECT unnest([${AVAILABLE_AT_BASES.map((b) => quoteLiteral(b)).join(', ')}])`,
  ],
};

export async function createSplitCodes(duck: Duck): Promise<void> {
  for (const [type, values] of Object.values(SPLIT_CODES)) await createTextEnum(duck, type, values);
}

/**
 * Writes one split table, cut between series into files of at most MAX_ROWS_PER_FILE rows (one file,
 * named spec.path, unless the table is larger: then name-000.parquet, name-001.parquet…), so each COPY sorts in
 * memory at FinVerse scale. Readers take every file the manifest lists under the table's name.
 */
export async function writeOutputs(duck: Duck, dir: string, spec: OutputSpec): Promise<ManifestOutput[]> {
  const ranges = await keyRanges(
    duck,
    spec.counts ??
      `SELECT series_key AS key, count(*) AS n FROM ${quoteIdent(spec.source ?? spec.table)} GROUP BY series_key`,
    undefined,
    MAX_ROWS_PER_FILE,
  );
  // An empty table is still written (one empty file), so the manifest always names every table.
  if (ranges.length === 0) ranges.push([0, 0]);
  const source = quoteIdent(spec.source ?? spec.table);
  const columns = (
    await duck.all<{ column_name: string; column_type: string }>(`DESCRIBE SELECT * FROM ${source}`)
  ).filter((c) => c.column_name !== 'series_key');
  const codes: TextCodes = Object.fromEntries(
    columns
      .filter(
        (c) =>
          (c.column_type === 'VARCHAR' || c.column_type.startsWith('ENUM')) &&
          Object.hasOwn(SPLIT_CODES, c.column_name),
      )
      .map((c) => [c.column_name, SPLIT_CODES[c.column_name][0]]),
  );
  const outputs: ManifestOutput[] = [];
  for (const [i, [lo, hi]] of ranges.entries()) {
    const path = partPath(spec.path, i, ranges.length);
    const file = join(dir, ...path.split('/'));
    await duck.writeParquet(
      sortWithCodes(
        columns.map((c) => c.column_name),
        `FROM ${source} WHERE series_key BETWEEN $lo AND $hi`,
        spec.orderBy,
        codes,
      ),
      file,
      { lo, hi },
    );
    outputs.push(
      await manifestOutput(dir, {
        path,
        table: spec.table,
        ...(await describeParquet(duck, file, spec.timeColumns)),
      }),
    );
  }
  return outputs;
}

/**
 * membership.parquet: the parent's membership rows of the split's entities, the evidence for which origins
 * were served (grain and order as in the universe).
 */
export async function writeMembership(duck: Duck, dir: string): Promise<ManifestOutput> {
  const file = join(dir, 'membership.parquet');
  await duck.writeParquet(
    'SELECT * FROM split_membership ORDER BY entity_id, universe, source, "from" NULLS FIRST, available_at NULLS FIRST',
    file,
  );
  return manifestOutput(dir, {
    path: 'membership.parquet',
    table: 'membership',
    ...(await describeParquet(duck, file)),
  });
}
