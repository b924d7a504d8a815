import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  createTextEnum,
  type Duck,
  describeParquet,
  keyRanges,
  MAX_ROWS_PER_FILE,
  type Params,
  type ParquetDescription,
  partPath,
  sortWithCodes,
  type TextCodes,
} from '@asof/duck';
import { FREQUENCIES, type Frequency } from '@asof/schema';

/** A written table's file: where, which table, and what describeParquet read back from it. */
export interface WrittenTable extends ParquetDescription {
  /** Relative path with / separators. */
  path: string;
  table: string;
}

interface TableSpec {
  table: string;
  select: string;
  orderBy: string;
  timeColumns?: [string, string];
}

/** The observation files' columns, in file order. */
export const OBSERVATION_COLUMNS = [
  'series_id',
  'timestamp',
  'period_start',
  'available_at',
  'value',
  'available_at_basis',
  'source_ref',
];

/** The observation files' text columns, sorted as ENUM codes (sortWithCodes). */
export const OBSERVATION_CODES: TextCodes = {
  series_id: 'asof_series_text',
  available_at_basis: 'asof_basis_text',
  source_ref: 'asof_ref_text',
};

/**
 * Writes the universe's tables as Parquet under `dir` (SPEC §3): observations hive-partitioned by
 * frequency (one file per partition, so names and bytes are stable), series, corporate_actions, membership
 * and member_spans (docs/decisions/0021).
 * `partitions` limits the observation partitions written (asof update links the unchanged ones).
 */
export async function writeUniverse(
  duck: Duck,
  dir: string,
  options: { partitions?: (frequency: Frequency) => boolean } = {},
): Promise<WrittenTable[]> {
  const written: WrittenTable[] = [];
  await createObservationCodes(duck, await observationTexts(duck));
  for (const f of FREQUENCIES) {
    if (options.partitions && !options.partitions(f)) continue;
    // Straight from observations with the frequency bound: no partition copy; series_rank sorts like
    // series_id at a fraction of the cost of comparing strings. A partition over MAX_ROWS_PER_FILE rows
    // is written as data-000.parquet, data-001.parquet… cut between series (keyRanges).
    const ranges = await keyRanges(
      duck,
      'SELECT series_rank AS key, count(*) AS n FROM observations WHERE frequency = $f GROUP BY series_rank',
      { f },
      MAX_ROWS_PER_FILE,
    );
    for (const [i, [lo, hi]] of ranges.entries()) {
      written.push(
        await writeQuery(
          duck,
          dir,
          {
            path: partPath(`observations/frequency=${f}/data.parquet`, i, ranges.length),
            table: 'observations',
            timeColumns: ['timestamp', 'available_at'],
            params: { f, lo, hi },
          },
          sortWithCodes(
            OBSERVATION_COLUMNS,
            'FROM observations WHERE frequency = $f AND series_rank BETWEEN $lo AND $hi',
            'series_rank, "timestamp", available_at',
            OBSERVATION_CODES,
          ),
        ),
      );
    }
  }
  const specs: (TableSpec & { path: string })[] = [
    { path: 'series.parquet', table: 'series', select: 'SELECT * FROM series', orderBy: 'series_id' },
    {
      path: 'tasks.parquet',
      table: 'tasks',
      select: 'SELECT * FROM tasks',
      orderBy: 'series_id, aspect, metric, p NULLS FIRST, h NULLS FIRST',
    },
    {
      path: 'corporate_actions.parquet',
      table: 'corporate_actions',
      select: 'SELECT * FROM corporate_actions',
      orderBy: 'entity_id, ex_date, kind',
    },
    {
      path: 'membership.parquet',
      table: 'membership',
      select: 'SELECT * FROM membership',
      orderBy: 'entity_id, universe, source, "from" NULLS FIRST, available_at NULLS FIRST',
    },
    {
      path: 'member_spans.parquet',
      table: 'member_spans',
      select: 'SELECT * FROM member_spans',
      orderBy: 'entity_id, "from" NULLS FIRST',
    },
  ];
  for (const spec of specs) written.push(await writeTable(duck, dir, spec));
  return written;
}

/**
 * Queries of every text the observation columns of OBSERVATION_CODES take, as the sources staged them: the
 * series ids from `seriesIds` (a small table of the staged series), basis and ref from stg_keys.
 */
export function stagedObservationTexts(seriesIds: string): Record<string, string> {
  return {
    series_id: seriesIds,
    available_at_basis: "SELECT text FROM stg_keys WHERE kind = 'basis'",
    source_ref: "SELECT text FROM stg_keys WHERE kind = 'ref'",
  };
}

/** Creates the ENUM types of OBSERVATION_CODES from `texts` (column → query of its texts). */
export async function createObservationCodes(duck: Duck, texts: Record<string, string>): Promise<void> {
  for (const [column, sql] of Object.entries(texts)) {
    await createTextEnum(duck, OBSERVATION_CODES[column], sql);
  }
}

/**
 * Where writeUniverse finds the observation texts. When observations is the build's view, in the small
 * tables it joins (a scan of the view would cost a pass over every row); when a command materialised it as
 * a table (asof update), in the table's own columns.
 */
async function observationTexts(duck: Duck): Promise<Record<string, string>> {
  const view = await duck.one<{ n: bigint }>(
    "SELECT count(*) AS n FROM duckdb_views() WHERE view_name = 'observations' AND NOT internal",
  );
  if (Number(view.n) > 0) return stagedObservationTexts('SELECT series_id FROM observation_series');
  return Object.fromEntries(
    Object.keys(OBSERVATION_CODES).map((column) => [column, `SELECT ${column} FROM observations`]),
  );
}

/** Writes one ordered query to `dir/spec.path` and describes it for the manifest. */
export async function writeTable(
  duck: Duck,
  dir: string,
  spec: TableSpec & { path: string; params?: Params },
): Promise<WrittenTable> {
  return writeQuery(duck, dir, spec, `${spec.select} ORDER BY ${spec.orderBy}`);
}

/** Writes `query` (ordered on its grain) to `dir/spec.path` and describes it for the manifest. */
async function writeQuery(
  duck: Duck,
  dir: string,
  spec: Pick<TableSpec, 'table' | 'timeColumns'> & { path: string; params?: Params },
  query: string,
): Promise<WrittenTable> {
  const file = join(dir, ...spec.path.split('/'));
  mkdirSync(join(file, '..'), { recursive: true });
  await duck.writeParquet(query, file, spec.params);
  return { path: spec.path, table: spec.table, ...(await describeParquet(duck, file, spec.timeColumns)) };
}
