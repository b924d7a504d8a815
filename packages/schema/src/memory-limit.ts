// `duckdb.memory_limit` as DuckDB reads it, and the range asof runs in (docs/decisions/0062).

/** DuckDB's decimal units are powers of 1000, its binary ones of 1024 (as DuckDB itself parses them). */
const UNIT_BYTES: Record<string, number> = {
  b: 1,
  byte: 1,
  bytes: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};
const MEMORY_SIZE = /^(\d+(?:\.\d+)?)\s*(b|bytes?|kb|mb|gb|tb|kib|mib|gib|tib)$/i;
const MEMORY_SHARE = /^(\d+(?:\.\d+)?)%$/;

/**
 * The smallest limit asof takes: the tiny pipeline (12 instruments, 2 ALFRED series, 107k rows) builds at
 * 64MB and fails at 32MB in `observation_rows`; even one ALFRED series fails at 12MB. Below it DuckDB
 * cannot hold its per-thread buffers and one Parquet row group, so no build could finish.
 */
export const MEMORY_LIMIT_MIN = '64MB';
export const MEMORY_LIMIT_MIN_BYTES = 64e6;
/**
 * The largest: DuckDB shows a limit of 1 PiB or more in PiB, a unit its own settings do not read back
 * ("Unknown unit for memory: 'pib'"), so asof could not hand the limit on to the block allocator.
 */
export const MEMORY_LIMIT_MAX = '1000TB';
export const MEMORY_LIMIT_MAX_BYTES = 1e15;
/** The limit the default universe is documented and tested to build at (tests/reliability-memory.test.ts). */
export const DEFAULT_UNIVERSE_MEMORY_LIMIT = '200MB';

export const MEMORY_LIMIT_RANGE = `a size from ${MEMORY_LIMIT_MIN} to ${MEMORY_LIMIT_MAX} like '8GB', '512MB', '2GiB', or a share of RAM like '60%'`;

export type MemoryLimit = { kind: 'size'; bytes: number } | { kind: 'share'; percent: number };

/** A memory_limit's meaning, or null when DuckDB would not read it as a size or share. */
export function parseMemoryLimit(value: string): MemoryLimit | null {
  const size = MEMORY_SIZE.exec(value);
  if (size) return { kind: 'size', bytes: Number(size[1]) * UNIT_BYTES[size[2].toLowerCase()] };
  const share = MEMORY_SHARE.exec(value);
  if (share) return { kind: 'share', percent: Number(share[1]) };
  return null;
}

/** What is wrong with a memory_limit whatever the machine (null when nothing); a share is checked once resolved. */
export function memoryLimitProblem(value: string): string | null {
  const limit = parseMemoryLimit(value);
  if (limit === null) return `${JSON.stringify(value)} is not a size DuckDB understands`;
  if (limit.kind === 'share') {
    return limit.percent > 0 && limit.percent <= 100
      ? null
      : `${value} is not a share of memory above 0% and at most 100%`;
  }
  if (!(limit.bytes > 0)) return `${value} leaves DuckDB no memory`;
  if (limit.bytes < MEMORY_LIMIT_MIN_BYTES) return `${value} is below asof's minimum of ${MEMORY_LIMIT_MIN}`;
  if (limit.bytes > MEMORY_LIMIT_MAX_BYTES) return `${value} is above asof's maximum of ${MEMORY_LIMIT_MAX}`;
  return null;
}

/** A memory_limit in bytes on a machine with `physicalBytes` of RAM (a share is of that). */
export function memoryLimitBytes(value: string, physicalBytes: number): number | null {
  const limit = parseMemoryLimit(value);
  if (limit === null) return null;
  return Math.floor(limit.kind === 'size' ? limit.bytes : (physicalBytes * limit.percent) / 100);
}
