import type { DuckDBAppender, DuckDBDataChunk, DuckDBType, DuckDBValue } from '@duckdb/node-api';
import type { DataChunk } from '@duckdb/node-bindings';
import { nodeBindings as bindings, nodeApi } from './node-api.ts';

const { DuckDBDataChunk: DataChunks, DuckDBTypeId: TypeId } = nodeApi;

const CHUNK = 2048;

/** How a column is buffered: JavaScript values, or a typed array written into the vector in one copy. */
const GENERIC = 0;
const FLOAT64 = 1;
const INT32 = 2;

/**
 * The native data chunk behind a DuckDBDataChunk: a private field of @duckdb/node-api (pinned,
 * docs/decisions/0017), undefined if another version names it otherwise.
 */
function nativeChunk(chunk: DuckDBDataChunk): DataChunk | undefined {
  return (chunk as unknown as { chunk?: DataChunk }).chunk;
}

/**
 * DuckDB's validity mask for `n` rows with the `nulls` rows cleared: 64-bit words, row i is bit i % 64
 * of word i / 64, written as little-endian 32-bit halves.
 */
function validityMask(n: number, nulls: readonly number[]): Uint32Array<ArrayBuffer> {
  const words = new Uint32Array(Math.ceil(n / 64) * 2).fill(0xffffffff);
  for (const i of nulls) words[i >>> 5] &= ~(1 << (i & 31));
  return words;
}

/** One column of TableAppender.pushColumns: its values, one value for every row, or null (all NULL). */
export type ColumnBlock = Float64Array | Int32Array | number | null;

function columnBlockProblem(kind: number, v: ColumnBlock, length: number): string | null {
  if (kind === GENERIC) return 'pushColumns takes numeric (DOUBLE, INTEGER) columns only; use push()';
  if (v === null) return null;
  if (typeof v === 'number') {
    return kind === INT32 && (v | 0) !== v ? `${v} is not a 32-bit integer` : null;
  }
  if (!(kind === FLOAT64 ? v instanceof Float64Array : v instanceof Int32Array)) {
    return `expected ${kind === FLOAT64 ? 'a Float64Array' : 'an Int32Array'}, got ${v.constructor.name}`;
  }
  return v.length === length ? null : `${v.length} values for ${length} rows`;
}

/**
 * Synchronous row appends into a DuckDB table, buffered column-wise and handed over a data chunk
 * (2048 rows) at a time — far fewer native calls than one per value. DOUBLE and INTEGER columns are
 * buffered in typed arrays and copied into the chunk's vector at once, not set value by value: the staging
 * sink appends 5.4M rows × 8 columns in the default build, where the per-value path cost ~2 s.
 */
export class TableAppender {
  private readonly columns: (DuckDBValue[] | Float64Array | Int32Array)[];
  private readonly kinds: Uint8Array;
  /** Per typed column, the chunk rows that are NULL (a typed array has no NULL). */
  private readonly nulls: number[][];
  private n = 0;
  private chunk: DuckDBDataChunk | undefined;
  rows = 0;

  constructor(
    private readonly appender: DuckDBAppender,
    private readonly types: readonly DuckDBType[],
  ) {
    this.kinds = Uint8Array.from(types, (t) =>
      t.typeId === TypeId.DOUBLE ? FLOAT64 : t.typeId === TypeId.INTEGER ? INT32 : GENERIC,
    );
    this.columns = types.map((_, c) =>
      this.kinds[c] === FLOAT64
        ? new Float64Array(CHUNK)
        : this.kinds[c] === INT32
          ? new Int32Array(CHUNK)
          : new Array<DuckDBValue>(CHUNK),
    );
    this.nulls = types.map(() => []);
  }

  push(row: readonly DuckDBValue[]): void {
    const n = this.n;
    for (let c = 0; c < row.length; c++) {
      const v = row[c];
      const kind = this.kinds[c];
      if (kind === GENERIC) {
        (this.columns[c] as DuckDBValue[])[n] = v;
      } else if (v === null || v === undefined) {
        this.nulls[c].push(n);
      } else if (typeof v === 'number' && (kind === FLOAT64 || (v | 0) === v)) {
        (this.columns[c] as Float64Array | Int32Array)[n] = v;
      } else {
        // The row is not appended: forget the NULLs already noted for its earlier columns.
        for (const rowNulls of this.nulls) if (rowNulls.at(-1) === n) rowNulls.pop();
        throw new TypeError(
          `column ${c + 1} (${this.types[c]}) of row ${this.rows + 1}: ${String(v)} is not ${kind === INT32 ? 'a 32-bit integer' : 'a number'}`,
        );
      }
    }
    this.n++;
    this.rows++;
    if (this.n === CHUNK) this.flushChunk();
  }

  /**
   * Appends `length` rows given column by column, the same rows as `length` push() calls: a typed array
   * holds a column's values (Float64Array for DOUBLE, Int32Array for INTEGER), a number repeats one value
   * and null makes the column NULL. Numeric columns only. Values are copied a chunk at a time, not one by
   * one: the bulk path of sources that generate whole arrays.
   */
  pushColumns(columns: readonly ColumnBlock[], length: number): void {
    if (columns.length !== this.types.length) {
      throw new TypeError(`pushColumns: ${columns.length} columns for a table of ${this.types.length}`);
    }
    for (let c = 0; c < this.types.length; c++) {
      const problem = columnBlockProblem(this.kinds[c], columns[c], length);
      if (problem !== null) {
        throw new TypeError(`column ${c + 1} (${this.types[c]}) of rows ${this.rows + 1}…: ${problem}`);
      }
    }
    let done = 0;
    while (done < length) {
      const n = this.n;
      const take = Math.min(CHUNK - n, length - done);
      for (let c = 0; c < this.types.length; c++) {
        const col = this.columns[c] as Float64Array | Int32Array;
        const v = columns[c];
        if (v === null) for (let i = 0; i < take; i++) this.nulls[c].push(n + i);
        else if (typeof v === 'number') col.fill(v, n, n + take);
        else col.set(v.subarray(done, done + take), n);
      }
      this.n += take;
      this.rows += take;
      done += take;
      if (this.n === CHUNK) this.flushChunk();
    }
  }

  private flushChunk(): void {
    const n = this.n;
    if (n === 0) return;
    // One chunk for the appender's life, emptied before each use: the appender copies a chunk's rows when
    // it is appended, and a chunk per 2048 rows left its native vectors (~16 KB a column) to the garbage
    // collector's finalizers, so the staging of the default build kept touching fresh memory.
    let chunk = this.chunk;
    if (chunk === undefined) chunk = this.chunk = DataChunks.create(this.types);
    else chunk.reset();
    chunk.rowCount = n;
    for (let c = 0; c < this.columns.length; c++) {
      const col = this.columns[c];
      if (Array.isArray(col)) chunk.setColumnValues(c, n === CHUNK ? col : col.slice(0, n));
      else setTypedColumn(chunk, c, col.subarray(0, n), this.nulls[c]);
      this.nulls[c] = [];
    }
    this.appender.appendDataChunk(chunk);
    this.n = 0;
  }

  /** Flushes buffered rows and closes the appender; the rows are then visible to queries. */
  close(): void {
    this.flushChunk();
    this.appender.closeSync();
  }
}

/**
 * Copies `values` into column `c` of `chunk` with one native copy (the bindings' copy_data_to_vector,
 * not node-api's vector objects, which first copy the chunk's data out to JavaScript and then back:
 * ~0.45 s of the default build's 5.4M staged rows), then writes the `nulls` rows' mask in one more.
 * Where the chunk's native handle is not found (another @duckdb/node-api), it falls back to the public
 * per-value path, with the same result.
 */
function setTypedColumn(
  chunk: DuckDBDataChunk,
  c: number,
  values: Float64Array | Int32Array,
  nulls: readonly number[],
): void {
  const native = nativeChunk(chunk);
  if (native !== undefined) {
    const vector = bindings.data_chunk_get_vector(native, c);
    bindings.copy_data_to_vector(
      vector,
      0,
      values.buffer as ArrayBuffer,
      values.byteOffset,
      values.byteLength,
    );
    if (nulls.length > 0) {
      const mask = validityMask(values.length, nulls);
      bindings.vector_ensure_validity_writable(vector);
      bindings.copy_data_to_vector_validity(vector, 0, mask.buffer, 0, mask.byteLength);
    }
    return;
  }
  const boxed: (number | null)[] = Array.from(values);
  for (const i of nulls) boxed[i] = null;
  chunk.setColumnValues(c, boxed);
}
