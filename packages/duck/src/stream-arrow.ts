import type { DuckDBDataChunk, DuckDBListVector, DuckDBTypeId } from '@duckdb/node-api';
import type { Table } from 'apache-arrow';
import { nodeApi } from './node-api.ts';
import { type Duck, DuckError, type Params } from './open-duck.ts';

const { DuckDBListVector: ListVector, DuckDBTypeId: TypeId } = nodeApi;

/** Numeric types whose vectors hold a typed array of their values (`items`), read without boxing each one. */
const NUMERIC_TYPES = new Set<DuckDBTypeId>([
  TypeId.TINYINT,
  TypeId.SMALLINT,
  TypeId.INTEGER,
  TypeId.BIGINT,
  TypeId.UTINYINT,
  TypeId.USMALLINT,
  TypeId.UINTEGER,
  TypeId.UBIGINT,
  TypeId.FLOAT,
  TypeId.DOUBLE,
]);

type NumericItems =
  | Float64Array
  | Float32Array
  | Int32Array
  | Int16Array
  | Int8Array
  | Uint32Array
  | Uint16Array
  | Uint8Array
  | BigInt64Array
  | BigUint64Array;

/** The typed arrays a numeric column arrives in (BIGINTs become doubles). */
export type NumberArray = Exclude<NumericItems, BigInt64Array | BigUint64Array>;

/** A vector as @duckdb/node-api holds it: `items` and `validity` are internals (docs/decisions/0017). */
interface RawVector {
  type: { typeId: DuckDBTypeId };
  items?: NumericItems;
  validity?: { data?: unknown };
}

/**
 * A numeric column of a chunk with no NULLs, read straight from the vector's typed array: about 5× faster
 * than a JavaScript value per item (the segments' characteristics stream 10^8 returns). The vector's
 * `items` and `validity` are internals of @duckdb/node-api (pinned, docs/decisions/0017); where they are
 * not as expected, or the chunk has a NULL (a validity mask), null sends the column to the per-item path.
 */
function numericColumn(chunk: DuckDBDataChunk, c: number): Float64Array | null {
  const items = numericItems(chunk.getColumnVector(c) as unknown as RawVector, chunk.rowCount);
  return items === null || items instanceof Float64Array ? items : Float64Array.from(items);
}

/**
 * A vector's values as the typed array @duckdb/node-api copied them into (BIGINTs as doubles), or null
 * where that path does not apply. The array is JavaScript's own copy, so it is handed on without another.
 */
function numericItems(vector: RawVector, count: number): NumberArray | null {
  if (!NUMERIC_TYPES.has(vector.type.typeId) || !vector.validity || vector.validity.data) return null;
  const items = vector.items;
  if (!items || items.length !== count || !ArrayBuffer.isView(items)) return null;
  if (items instanceof BigInt64Array || items instanceof BigUint64Array) {
    const out = new Float64Array(items.length);
    for (let i = 0; i < items.length; i++) out[i] = Number(items[i]);
    return out;
  }
  return items;
}

/** A column's values (the per-item path) as doubles: NULL → NaN, BIGINT via Number. */
function numbersOf(values: readonly unknown[]): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    out[i] = v === null ? Number.NaN : Number(v as number | bigint);
  }
  return out;
}

/** Runs `sql` as a stream and hands each non-empty DuckDB chunk (≤ 2048 rows) to `onChunk`; returns the row count. */
async function forEachChunk(
  duck: Duck,
  sql: string,
  params: Params | undefined,
  onChunk: (chunk: DuckDBDataChunk, names: readonly string[]) => void | Promise<void>,
): Promise<number> {
  const result = await duck.stream(sql, params);
  const names = result.columnNames();
  let rows = 0;
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    rows += chunk.rowCount;
    await onChunk(chunk, names);
  }
  return rows;
}

/**
 * Streams a query into apache-arrow tables, one per DuckDB chunk (≤ 2048 rows), for TypeScript-side
 * computation. Numeric columns become Float64 (NULL → NaN; BIGINT via Number, so keep them < 2^53),
 * VARCHAR becomes Utf8, BOOLEAN Bool. Cast timestamps to epoch micros in SQL (`epoch_us(ts)`) first.
 */
export async function streamArrow(
  duck: Duck,
  sql: string,
  params: Params | undefined,
  onBatch: (batch: Table) => void | Promise<void>,
): Promise<number> {
  // Loaded on first use: apache-arrow takes ~0.3 s to import, which every command would pay at start.
  const { tableFromArrays } = await import('apache-arrow');
  return forEachChunk(duck, sql, params, (chunk, names) => {
    const cols: Record<string, Float64Array | string[] | boolean[]> = {};
    for (let c = 0; c < names.length; c++) {
      const fast = numericColumn(chunk, c);
      if (fast) {
        cols[names[c]] = fast;
        continue;
      }
      const values = chunk.getColumnValues(c);
      const first = values.find((v) => v !== null);
      if (typeof first === 'string') {
        cols[names[c]] = values.map((v) => (v === null ? '' : String(v)));
      } else if (typeof first === 'boolean') {
        cols[names[c]] = values.map((v) => v === true);
      } else {
        cols[names[c]] = numbersOf(values);
      }
    }
    return onBatch(tableFromArrays(cols as Parameters<typeof tableFromArrays>[0]));
  });
}

/**
 * Streams a query of numeric columns as one Float64Array per column and chunk (≤ 2048 rows), in the
 * query's column order: NULL → NaN, BIGINT via Number (keep them < 2^53). For long numeric scans
 * (the segments' 10^8 returns): about twice as fast as streamArrow, which builds an Arrow table per chunk.
 * A column that is not numeric is refused.
 */
export function streamNumbers(
  duck: Duck,
  sql: string,
  params: Params | undefined,
  onChunk: (columns: Float64Array[], rows: number) => void | Promise<void>,
): Promise<number> {
  return forEachChunk(duck, sql, params, (chunk, names) => {
    const columns: Float64Array[] = [];
    for (let c = 0; c < names.length; c++)
      columns.push(numericColumn(chunk, c) ?? numbersOfColumn(chunk, c, names[c], 'streamNumbers'));
    return onChunk(columns, chunk.rowCount);
  });
}

/**
 * A chunk's LIST column of numbers: row i's list is items[start[i] … start[i] + length[i]). `items` keeps
 * the list's own type (Int32Array for INTEGER, Float64Array for DOUBLE…), read without a conversion.
 */
export interface NumberLists {
  start: Int32Array;
  length: Int32Array;
  items: NumberArray;
}

/**
 * Streams a query of numeric and LIST-of-numeric columns, one DuckDB chunk (≤ 2048 rows) at a time:
 * `scalars` holds the numeric columns and `lists` the list columns, each in the query's column order.
 * A list's NULL items become NaN, as in streamNumbers; a NULL list is refused (coalesce it in the query).
 * Lists carry many values per row, so a long scan reaches JavaScript in far fewer chunks than row by
 * row: each chunk's asynchronous fetch costs the main thread ~0.1 ms whatever it holds.
 */
export function streamNumberLists(
  duck: Duck,
  sql: string,
  params: Params | undefined,
  onChunk: (scalars: Float64Array[], lists: NumberLists[], rows: number) => void | Promise<void>,
): Promise<number> {
  return forEachChunk(duck, sql, params, (chunk, names) => {
    const scalars: Float64Array[] = [];
    const lists: NumberLists[] = [];
    for (let c = 0; c < names.length; c++) {
      const vector = chunk.getColumnVector(c);
      if (vector instanceof ListVector) lists.push(numberListsOf(vector, chunk.rowCount, names[c]));
      else scalars.push(numericColumn(chunk, c) ?? numbersOfColumn(chunk, c, names[c], 'streamNumberLists'));
    }
    return onChunk(scalars, lists, chunk.rowCount);
  });
}

function numbersOfColumn(chunk: DuckDBDataChunk, c: number, name: string, fn: string): Float64Array {
  const type = chunk.getColumnVector(c).type;
  if (!NUMERIC_TYPES.has(type.typeId)) {
    throw new DuckError(
      `${fn}: column ${name} is ${type}, not a number; cast it in the query (epoch_us for instants) or use streamArrow`,
    );
  }
  return numbersOf(chunk.getColumnValues(c));
}

function numberListsOf(vector: DuckDBListVector, rows: number, name: string): NumberLists {
  const start = new Int32Array(rows);
  const length = new Int32Array(rows);
  const child = vector.childVector;
  if (!NUMERIC_TYPES.has(child.type.typeId)) {
    throw new DuckError(`streamNumberLists: column ${name} is ${vector.type}, not a list of numbers`);
  }
  // Without a validity mask (`data`) every list is present. The public per-row check slices the child
  // vector, so it only serves where the internals are not as expected.
  const validity = (vector as unknown as { validity?: { data?: unknown; itemValid(i: number): boolean } })
    .validity;
  const present = (i: number) =>
    validity ? !validity.data || validity.itemValid(i) : vector.getItemVector(i) !== null;
  for (let i = 0; i < rows; i++) {
    if (!present(i)) {
      throw new DuckError(
        `streamNumberLists: column ${name} has a NULL list in row ${i}; coalesce it in the query`,
      );
    }
    start[i] = vector.getEntryOffset(i);
    length[i] = vector.getEntryLength(i);
  }
  const items =
    numericItems(child as unknown as RawVector, child.itemCount) ??
    numbersOf(Array.from({ length: child.itemCount }, (_, j) => child.getItem(j)));
  return { start, length, items };
}
