import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Duck, type Params, quoteIdent, quoteLiteral } from '@asof/duck';
import { FREQUENCIES } from '@asof/schema';

export interface WrittenTable {
  /** Relative path with / separators. */
  path: string;
  table: string;
  rows: number;
  /** Canonical `name:type` list the schema fingerprint is taken of. */
  columns: string[];
  min_timestamp: string | null;
  max_timestamp: string | null;
  min_available_at: string | null;
  max_available_at: string | null;
}

const ISO = "'%Y-%m-%dT%H:%M:%S.%fZ'";

interface TableSpec {
  table: string;
  select: string;
  orderBy: string;
  timeColumns?: [string, string];
}

const OBSERVATION_COLUMNS =
  'series_id, "timestamp", period_start, available_at, value, available_at_basis, source_ref';

/**
 * Writes the universe's tables as Parquet under `dir` (SPEC §3): observations hive-partitioned by
 * frequency (one file per partition, so names and bytes are stable), series, corporate_actions.
 */
export async function writeUniverse(duck: Duck, dir: string): Promise<WrittenTable[]> {
  const written: WrittenTable[] = [];
  const counts = await duck.all<{ frequency: string; n: bigint }>(
    'SELECT frequency, count(*) AS n FROM observations GROUP BY frequency',
  );
  const present = new Set(counts.filter((c) => Number(c.n) > 0).map((c) => c.frequency));
  for (const f of FREQUENCIES) {
    if (!present.has(f)) continue;
    // Straight from observations with the frequency bound: no partition copy; series_rank sorts like
    // series_id at a fraction of the cost of comparing strings.
    written.push(
      await writeTable(duck, dir, {
        path: `observations/frequency=${f}/data.parquet`,
        table: 'observations',
        select: `SELECT ${OBSERVATION_COLUMNS} FROM observations WHERE frequency = $f`,
        orderBy: 'series_rank, "timestamp", available_at',
        timeColumns: ['timestamp', 'available_at'],
        params: { f },
      }),
    );
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
  ];
  for (const spec of specs) written.push(await writeTable(duck, dir, spec));
  return written;
}

/** Writes one ordered query to `dir/spec.path` and describes it for the manifest. */
export async function writeTable(
  duck: Duck,
  dir: string,
  spec: TableSpec & { path: string; params?: Params },
): Promise<WrittenTable> {
  const file = join(dir, ...spec.path.split('/'));
  mkdirSync(join(file, '..'), { recursive: true });
  await duck.writeParquet(`${spec.select} ORDER BY ${spec.orderBy}`, file, spec.params);
  const src = `read_parquet(${quoteLiteral(file)})`;
  const columns = (
    await duck.all<{ column_name: string; column_type: string }>(`DESCRIBE SELECT * FROM ${src}`)
  ).map((c) => `${c.column_name}:${c.column_type}`);
  const [tsCol, avCol] = spec.timeColumns ?? [];
  const stats = await duck.one<Record<string, string | null | bigint>>(
    `SELECT count(*) AS rows,
      ${tsCol ? `strftime(min(${quoteIdent(tsCol)}), ${ISO})` : 'NULL'} AS min_timestamp,
      ${tsCol ? `strftime(max(${quoteIdent(tsCol)}), ${ISO})` : 'NULL'} AS max_timestamp,
      ${avCol ? `strftime(min(${quoteIdent(avCol)}), ${ISO})` : 'NULL'} AS min_available_at,
      ${avCol ? `strftime(max(${quoteIdent(avCol)}), ${ISO})` : 'NULL'} AS max_available_at
     FROM ${src}`,
  );
  return {
    path: spec.path,
    table: spec.table,
    rows: Number(stats.rows),
    columns,
    min_timestamp: (stats.min_timestamp as string | null) ?? null,
    max_timestamp: (stats.max_timestamp as string | null) ?? null,
    min_available_at: (stats.min_available_at as string | null) ?? null,
    max_available_at: (stats.max_available_at as string | null) ?? null,
  };
}
