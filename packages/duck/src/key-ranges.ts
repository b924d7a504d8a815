import type { Duck, Params } from './open-duck.ts';

/**
 * Rows per Parquet file at most for the big tables (SPEC §12): a COPY sorts its whole input, and a
 * FinVerse-scale partition (~100M rows) sorted at once spills to disk; 16M rows sort within a few GB.
 */
export const MAX_ROWS_PER_FILE = 16_000_000;

/**
 * Cuts an ordered integer key (e.g. a series rank) into consecutive inclusive ranges of at most
 * `maxRows` rows each — one key never spans two ranges, so a key larger than maxRows gets a range of
 * its own. `sql` returns one row per key: `key` and its row count `n`. Used to write a large table as
 * several files, each of whose COPY … ORDER BY sorts in memory instead of spilling the whole table to
 * disk; the cut depends only on the data, so the files are as reproducible as one file would be.
 */
export async function keyRanges(
  duck: Duck,
  sql: string,
  params: Params | undefined,
  maxRows: number,
): Promise<[number, number][]> {
  const rows = await duck.all<{ key: number | bigint; n: number | bigint }>(
    `SELECT key, n FROM (${sql}) ORDER BY key`,
    params,
  );
  return cutRanges(
    rows.map((r) => [Number(r.key), Number(r.n)]),
    maxRows,
  );
}

/** The pure part of keyRanges: (key, rows) pairs in key order → inclusive key ranges. */
export function cutRanges(
  counts: readonly (readonly [number, number])[],
  maxRows: number,
): [number, number][] {
  const out: [number, number][] = [];
  let lo = 0;
  let hi = 0;
  let size = 0;
  for (const [key, n] of counts) {
    if (size > 0 && size + n > maxRows) {
      out.push([lo, hi]);
      size = 0;
    }
    if (size === 0) lo = key;
    hi = key;
    size += n;
  }
  if (size > 0) out.push([lo, hi]);
  return out;
}

/**
 * `dir/name.parquet` for one part, `dir/name-000.parquet`, `dir/name-001.parquet`… for several (padded, so
 * a listing sorts in part order).
 */
export function partPath(path: string, part: number, parts: number): string {
  return parts === 1 ? path : path.replace(/\.parquet$/, `-${String(part).padStart(3, '0')}.parquet`);
}
