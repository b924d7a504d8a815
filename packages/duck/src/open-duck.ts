import { readFileSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { onInterrupt, scratchPath } from '@asof/output';
import { AsofError, DEFAULT_UNIVERSE_MEMORY_LIMIT, MEMORY_LIMIT_MIN, memoryLimitBytes } from '@asof/schema';
import type { DuckDBConnection, DuckDBInstance, DuckDBType, DuckDBValue } from '@duckdb/node-api';
import { loadSql, stripTrailingSemicolon } from './load-sql.ts';
import { nodeApi } from './node-api.ts';
import { quoteIdent, quoteLiteral } from './quote-ident.ts';
import { TableAppender } from './table-appender.ts';

export type Params = Record<string, DuckDBValue>;

/** Rows per Parquet row group in every file asof writes. */
export const PARQUET_ROW_GROUP_ROWS = 122_880;

export interface DuckOptions {
  /** Worker threads (default 2). Results do not depend on it: every output is ORDER BY'd on its grain. */
  threads?: number;
  /** DuckDB memory_limit, e.g. '8GB' or '60%'. */
  memoryLimit?: string;
  /**
   * Where the user set `memoryLimit` (`{ field: 'duckdb.memory_limit', file: 'p.json' }`, `{ field:
   * '--memory-limit' }`), named by the one-line error DuckDB's out-of-memory failures become.
   */
  memoryLimitSource?: { field: string; file?: string };
  /**
   * Where DuckDB spills when over the memory limit. Commands that write an output pass a folder inside
   * their temp output; without one, a scratch path in the system temp folder named after this process,
   * removed on close (or by the next asof command if this one is killed) — never DuckDB's default `.tmp`
   * in the working directory.
   */
  tempDirectory?: string;
  /** Database file, default in-memory. */
  path?: string;
}

export class DuckError extends AsofError {
  constructor(message: string, options: { context?: Record<string, unknown>; cause?: unknown } = {}) {
    super('DUCKDB_FAILED', message, options);
  }
}

/** This machine's physical memory in bytes (0 when /proc/meminfo cannot be read). */
export function physicalMemoryBytes(): number {
  try {
    return Number(/MemTotal:\s+(\d+)/.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The limit in bytes DuckDB is given: a percentage is of this machine's physical memory. */
function resolveMemoryLimit(limit: string | undefined): number | undefined {
  if (!limit) return undefined;
  if (limit.endsWith('%') && physicalMemoryBytes() === 0) return undefined;
  return memoryLimitBytes(limit, physicalMemoryBytes()) ?? undefined;
}

/**
 * DuckDB's block allocator reserves at most 80% of physical memory (its default memory_limit) and refuses a
 * larger size: a pipeline's limit above that (or a share above 80%) keeps a pool of that size.
 */
function blockPoolBytes(limitBytes: number | undefined): number | undefined {
  const physical = physicalMemoryBytes();
  if (limitBytes === undefined || physical === 0) return undefined;
  return Math.min(limitBytes, Math.floor(physical * 0.8));
}

/**
 * DuckDB's out-of-memory failure, as one line naming the setting to change: DuckDB's own text has a dozen
 * lines of SQL advice (`SET memory_limit`) a pipeline user cannot apply.
 */
export class DuckOutOfMemoryError extends AsofError {
  constructor(message: string, options: { context?: Record<string, unknown>; cause?: unknown } = {}) {
    super('DUCKDB_OUT_OF_MEMORY', message, options);
  }
}

/** The limit a Duck was opened with, for the out-of-memory message. */
export interface MemoryLimitSetting {
  /** The setting the user changes, e.g. `duckdb.memory_limit` or `--memory-limit`. */
  field: string;
  /** The pipeline file that sets it, if any. */
  file?: string;
  /** As written, e.g. '200MB' or '60%' (undefined: DuckDB's default, 80% of RAM). */
  value: string | undefined;
}

/** The first line of DuckDB's out-of-memory text in `err` or its causes, or null when it is another failure. */
function outOfMemoryText(err: unknown): string | null {
  for (let e = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    const m = /Out of Memory Error: ([^\n]*)/.exec(e.message);
    if (m) return m[1].trim();
  }
  return null;
}

/**
 * `err` as a DuckOutOfMemoryError when DuckDB ran out of memory (anywhere in its causes), else `err`
 * itself: for failures that reach a command through a stream or an appender rather than Duck.run.
 */
export function asOutOfMemory(err: unknown, limit: MemoryLimitSetting): unknown {
  if (err instanceof DuckOutOfMemoryError) return err;
  const text = outOfMemoryText(err);
  if (text === null) return err;
  const value = limit.value === undefined ? "DuckDB's default (80% of RAM)" : JSON.stringify(limit.value);
  const where = limit.file === undefined ? '' : ` in ${limit.file}`;
  const sizes =
    limit.field === 'duckdb.memory_limit'
      ? `at least ${MEMORY_LIMIT_MIN}; the default universe builds at ${DEFAULT_UNIVERSE_MEMORY_LIMIT}, bigger universes need more`
      : `at least ${MEMORY_LIMIT_MIN}`;
  return new DuckOutOfMemoryError(
    `DuckDB ran out of memory at ${limit.field} ${value}${where} (${text}); next: raise ${limit.field} (${sizes})`,
    { context: { field: limit.field, file: limit.file, value: limit.value, duckdb: text }, cause: err },
  );
}

/** A DuckDB instance with one connection, TimeZone UTC whatever the machine's. The only code in asof that touches @duckdb/node-api. */
export class Duck {
  /** Unregisters this connection from the signal handler's interrupts. */
  private readonly forgetInterrupt: () => void;

  private constructor(
    readonly instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
    /** False for a connect()ed sibling: closing it leaves the shared instance open. */
    private readonly ownsInstance = true,
    private readonly disposeScratch: () => void = () => {},
    readonly memoryLimit: MemoryLimitSetting = { field: 'the memory limit', value: undefined },
  ) {
    // Ctrl-C during a long query (a build's models, a split's COPY) stops the query at once instead of
    // letting it write on into a temp folder the handler is removing (audit 1.9).
    this.forgetInterrupt = onInterrupt(() => connection.interrupt());
  }

  /**
   * A second connection to the same database: its queries run concurrently with this one's (e.g. a
   * single-threaded aggregate beside a streamed scan that TypeScript consumes). Close it before the owner.
   */
  async connect(): Promise<Duck> {
    return new Duck(this.instance, await connectInUtc(this.instance), false, () => {}, this.memoryLimit);
  }

  static async open(options: DuckOptions = {}): Promise<Duck> {
    // ICU is built into @duckdb/node-api, and its TimeZone defaults to the machine's (TZ): casts to
    // TIMESTAMPTZ, strftime and date_trunc would then shift instants by the local offset, and a build on a
    // New York laptop would differ from one in CI. asof's instants are UTC (docs/decisions/0024).
    const config: Record<string, string> = {
      threads: String(options.threads ?? 2),
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
    };
    const mem = resolveMemoryLimit(options.memoryLimit);
    if (mem !== undefined) config.memory_limit = `${mem}B`;
    // A spelling asof does not read goes to DuckDB as written, so DuckDB's own error names it.
    else if (options.memoryLimit && !options.memoryLimit.endsWith('%'))
      config.memory_limit = options.memoryLimit;
    const scratch = options.tempDirectory ? undefined : scratchPath('duckdb');
    config.temp_directory = options.tempDirectory ?? scratch!.path;
    const instance = await nodeApi.DuckDBInstance.create(options.path ?? ':memory:', config);
    const connection = await connectInUtc(instance);
    // DuckDB's block allocator keeps the buffer blocks it frees for the next ones instead of handing their
    // pages back to the OS, which costs a page fault per 4 KB when they are touched again (~10 µs each on
    // these VMs). Up to the memory limit, the blocks the buffer manager may hold anyway (docs/decisions/0034).
    // Set in bytes: current_setting('memory_limit') reads "1.0 PiB" for a huge limit, which DuckDB cannot
    // parse back (docs/decisions/0062).
    const pool = blockPoolBytes(mem);
    try {
      await connection.run(
        pool === undefined
          ? "SET block_allocator_memory = current_setting('memory_limit')"
          : `SET block_allocator_memory = '${pool}B'`,
      );
    } catch {
      // A pool DuckDB cannot reserve (a cgroup smaller than /proc/meminfo says) stays off: it changes only
      // how fast blocks come back, never what a query computes.
    }
    const limit: MemoryLimitSetting = {
      field: options.memoryLimitSource?.field ?? 'the memory limit',
      file: options.memoryLimitSource?.file,
      value: options.memoryLimit,
    };
    return new Duck(instance, connection, true, scratch?.dispose, limit);
  }

  async run(sql: string, params?: Params): Promise<void> {
    try {
      await this.connection.run(sql, params);
    } catch (cause) {
      if (outOfMemoryText(cause) !== null) throw asOutOfMemory(cause, this.memoryLimit);
      throw new DuckError(`DuckDB failed: ${(cause as Error).message}\n  in: ${sql.slice(0, 400)}`, {
        cause,
      });
    }
  }

  /** All rows as plain objects (BIGINT → bigint, TIMESTAMPTZ → DuckDB value objects; cast in SQL for JSON). */
  async all<T = Record<string, unknown>>(sql: string, params?: Params): Promise<T[]> {
    try {
      const reader = await this.connection.runAndReadAll(sql, params);
      return reader.getRowObjectsJS() as T[];
    } catch (cause) {
      if (outOfMemoryText(cause) !== null) throw asOutOfMemory(cause, this.memoryLimit);
      throw new DuckError(`DuckDB failed: ${(cause as Error).message}\n  in: ${sql.slice(0, 400)}`, {
        cause,
      });
    }
  }

  async one<T = Record<string, unknown>>(sql: string, params?: Params): Promise<T> {
    const rows = await this.all<T>(sql, params);
    if (rows.length !== 1) throw new DuckError(`expected one row, got ${rows.length}: ${sql.slice(0, 200)}`);
    return rows[0];
  }

  async version(): Promise<string> {
    const row = await this.one<{ v: string }>('SELECT version() AS v');
    return row.v;
  }

  async createTable(table: string, query: string, params?: Params): Promise<void> {
    const used = params ? pickUsedParams(query, params) : undefined;
    await this.run(`CREATE OR REPLACE TABLE ${quoteIdent(table)} AS ${stripTrailingSemicolon(query)}`, used);
  }

  /**
   * Creates `<view>` as a TEMP VIEW of a model query, so a large model (the split's training snapshot) is
   * computed where it is read — a COPY streams it to Parquet — instead of being materialised first. DuckDB
   * cannot prepare a view, so each `$name` the query uses is bound once into a session variable
   * (`SET VARIABLE`, a bound value, never spliced into the SQL) and the view reads it with getvariable();
   * the variable is named after the view, so two views never share one.
   * `shared: true` makes a view of the database instead, which every connection reads (a session variable
   * is one connection's), so it takes no `$name`.
   */
  async createView(
    view: string,
    query: string,
    params?: Params,
    options: { shared?: boolean } = {},
  ): Promise<void> {
    let body = stripTrailingSemicolon(query);
    if (options.shared) {
      if (paramPattern('[A-Za-z_][A-Za-z0-9_]*').test(body)) {
        throw new DuckError(
          `a shared view reads no $parameters (a session variable is one connection's): ${view} uses one; make it a table or a view of one connection`,
        );
      }
      await this.run(`CREATE OR REPLACE VIEW ${quoteIdent(view)} AS ${body}`);
      return;
    }
    for (const [name, value] of Object.entries(params ? pickUsedParams(query, params) : {})) {
      const variable = `asof_${view}_${name}`;
      await this.run(`SET VARIABLE ${quoteIdent(variable)} = $value`, { value });
      body = body.replace(paramPattern(name, 'g'), `getvariable(${quoteLiteral(variable)})`);
    }
    await this.run(`CREATE OR REPLACE TEMP VIEW ${quoteIdent(view)} AS ${body}`);
  }

  /**
   * Writes a query to Parquet (zstd) deterministically: the query must end with ORDER BY on its grain; the
   * file is written to a temp path and renamed into place. Parameters are bound into the COPY itself
   * (DuckDB 1.5 prepares COPY statements), so a filtered write costs no intermediate table.
   */
  async writeParquet(
    query: string,
    path: string,
    params?: Params,
    /** Key-value metadata for the file footer (e.g. the asof entry that marks files asof wrote). */
    options: { kvMetadata?: Record<string, string> } = {},
  ): Promise<void> {
    if (!/order\s+by/i.test(query)) {
      throw new DuckError(
        `writeParquet needs a query ending in ORDER BY on the grain (deterministic files): ${query.slice(0, 200)}`,
      );
    }
    const used = params ? pickUsedParams(query, params) : undefined;
    await this.copyToParquet(
      `(${stripTrailingSemicolon(query)})`,
      path,
      used && Object.keys(used).length > 0 ? used : undefined,
      options.kvMetadata,
    );
  }

  /**
   * Writes the rows of Parquet `parts` (each written by writeParquet, so sorted on its grain) into one
   * file, in the order given and each part's own row order, without a sort: a file too large to sort
   * within the memory limit (and the disk its spill would take) is written as sorted parts, then joined.
   * DuckDB keeps a scan's insertion order (file order, then row order) while preserve_insertion_order is
   * on, which this checks. The file is the same bytes as one sorted COPY of every row when each part but
   * the last holds a whole number of row groups (PARQUET_ROW_GROUP_ROWS): the row groups then fall where
   * that COPY's would, whatever the cuts between parts (tested in open-duck.test.ts).
   */
  async concatParquet(
    parts: readonly string[],
    path: string,
    options: { kvMetadata?: Record<string, string> } = {},
  ): Promise<void> {
    if (parts.length === 0) throw new DuckError(`concatParquet: no parts to write to ${path}`);
    const keep = await this.one<{ v: boolean | string }>(
      "SELECT current_setting('preserve_insertion_order') AS v",
    );
    if (keep.v !== true && keep.v !== 'true') {
      throw new DuckError(
        `concatParquet needs preserve_insertion_order = true (it is ${String(keep.v)}): the parts' order is the file's`,
      );
    }
    await this.copyToParquet(
      `(SELECT * FROM read_parquet([${parts.map((p) => quoteLiteral(p)).join(', ')}]))`,
      path,
      undefined,
      options.kvMetadata,
    );
  }

  /** COPY `source` to a temp path beside `path` (zstd, asof's row groups), renamed into place once whole. */
  private async copyToParquet(
    source: string,
    path: string,
    params: Params | undefined,
    kvMetadata: Record<string, string> = {},
  ): Promise<void> {
    const tmp = `${path}.tmp-${process.pid}`;
    const kv = Object.entries(kvMetadata);
    const kvOption = kv.length
      ? `, KV_METADATA {${kv.map(([k, v]) => `${quoteLiteral(k)}: ${quoteLiteral(v)}`).join(', ')}}`
      : '';
    try {
      await this.run(
        `COPY ${source} TO ${quoteLiteral(tmp)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${PARQUET_ROW_GROUP_ROWS}${kvOption})`,
        params,
      );
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  /** Fast bulk load: appends columns (same length) into an existing table through DuckDB data chunks. */
  async appendColumns(
    table: string,
    types: readonly DuckDBType[],
    columns: readonly (readonly DuckDBValue[])[],
  ): Promise<void> {
    const n = columns[0]?.length ?? 0;
    const appender = await this.connection.createAppender(table);
    const size = 2048;
    for (let start = 0; start < n; start += size) {
      const end = Math.min(n, start + size);
      const chunk = nodeApi.DuckDBDataChunk.create(types, end - start);
      for (let c = 0; c < columns.length; c++) chunk.setColumnValues(c, columns[c].slice(start, end));
      appender.appendDataChunk(chunk);
    }
    appender.closeSync();
  }

  /** A synchronous, chunk-buffered appender for `table` whose columns have `types`. */
  async openAppender(table: string, types: readonly DuckDBType[]): Promise<TableAppender> {
    return new TableAppender(await this.connection.createAppender(table), types);
  }

  async stream(sql: string, params?: Params) {
    return this.connection.stream(sql, params);
  }

  close(): void {
    this.forgetInterrupt();
    this.connection.closeSync();
    if (this.ownsInstance) {
      this.instance.closeSync();
      this.disposeScratch();
    }
  }
}

/** A connection whose TimeZone is UTC: a session setting, so each connection sets it. */
/** The folder of this package's SQL: macros.sql, the macros every connection has. */
const SQL_DIR = new URL('../sql/', import.meta.url);

/**
 * A connection in UTC with asof's shared macros (sql/macros.sql: iso_instant, the calendar grid), defined
 * as TEMP macros, which are one connection's: each connection defines its own.
 */
async function connectInUtc(instance: DuckDBInstance): Promise<DuckDBConnection> {
  const connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
  await connection.run(loadSql(SQL_DIR, 'macros'));
  return connection;
}

/** DuckDB refuses parameters a statement does not use; bind only the `$names` that appear in it. */
export function pickUsedParams(sql: string, params: Params): Params {
  const used: Params = {};
  for (const [k, v] of Object.entries(params)) if (paramPattern(k).test(sql)) used[k] = v;
  return used;
}

/** `$name` as a whole token (so `$c` does not match inside `$cutoff`). */
function paramPattern(name: string, flags = ''): RegExp {
  return new RegExp(`\\$${name}\\b`, flags);
}
