import type { Duck } from './open-duck.ts';
import { quoteIdent, quoteLiteral } from './quote-ident.ts';

/** What a manifest records about a Parquet file besides its hash: rows, schema and time bounds. */
export interface ParquetDescription {
  rows: number;
  /** `name:type` per column, in file order (the manifest's schema fingerprint is their sha256). */
  columns: string[];
  min_timestamp: string | null;
  max_timestamp: string | null;
  min_available_at: string | null;
  max_available_at: string | null;
}

/**
 * Reads back a written Parquet file (the file, not the query that made it, so the description is what a
 * reader will see): row count, column types and the min/max of its timestamp and available_at columns
 * (either may be null: not a time-stamped table).
 */
export async function describeParquet(
  duck: Duck,
  file: string,
  timeColumns: readonly [string | null, string | null] = [null, null],
): Promise<ParquetDescription> {
  const src = `read_parquet(${quoteLiteral(file)})`;
  const columns = (
    await duck.all<{ column_name: string; column_type: string }>(`DESCRIBE SELECT * FROM ${src}`)
  ).map((c) => `${c.column_name}:${c.column_type}`);
  // Microsecond ISO instants, as every manifest writes them (sql/macros.sql).
  const bound = (fn: 'min' | 'max', col: string | null) =>
    col ? `iso_instant(${fn}(${quoteIdent(col)}))` : 'NULL';
  const [ts, av] = timeColumns;
  const stats = await duck.one<{
    rows: bigint;
    min_timestamp: string | null;
    max_timestamp: string | null;
    min_available_at: string | null;
    max_available_at: string | null;
  }>(
    `SELECT count(*) AS rows, ${bound('min', ts)} AS min_timestamp, ${bound('max', ts)} AS max_timestamp,
       ${bound('min', av)} AS min_available_at, ${bound('max', av)} AS max_available_at
     FROM ${src}`,
  );
  return {
    rows: Number(stats.rows),
    columns,
    min_timestamp: stats.min_timestamp ?? null,
    max_timestamp: stats.max_timestamp ?? null,
    min_available_at: stats.min_available_at ?? null,
    max_available_at: stats.max_available_at ?? null,
  };
}
