import { BIGINT, DOUBLE, DuckDBDataChunk, INTEGER, VARCHAR } from '@duckdb/node-api';
import bindings, { type DataChunk } from '@duckdb/node-bindings';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Duck } from './open-duck.ts';

// A database per test: one slow query on a loaded machine cannot spill into the next test (issue 50).
let duck: Duck;
beforeEach(async () => {
  duck = await Duck.open({ threads: 1 });
});
afterEach(() => duck.close());

const TYPES = [INTEGER, DOUBLE, VARCHAR, DOUBLE, BIGINT];
const COLUMNS = '(k INTEGER, x DOUBLE, s VARCHAR, y DOUBLE, seq BIGINT)';

/** Rows over 2½ chunks with NULLs in every column, negative and extreme values, a NaN and -0. */
function rows(n: number): (number | string | bigint | null)[][] {
  return Array.from({ length: n }, (_, i) => [
    i % 11 === 0 ? null : i % 2 ? -2147483648 + i : 2147483647 - i,
    i % 13 === 0 ? null : i === 7 ? Number.NaN : i === 8 ? -0 : (i - 2500) / 3,
    i % 17 === 0 ? null : `s${i % 5}`,
    i % 2049 === 0 ? null : Number.MAX_VALUE / (i + 1),
    BigInt(i),
  ]);
}

const read = (table: string) => duck.all(`SELECT k, x::VARCHAR AS x, s, y, seq FROM ${table} ORDER BY seq`);

describe('TableAppender', () => {
  it('appends typed and generic columns as the per-value path does, NULLs included', async () => {
    const data = rows(5000);
    await duck.run(`CREATE TABLE fast ${COLUMNS}`);
    const fast = await duck.openAppender('fast', TYPES);
    for (const r of data) fast.push(r);
    fast.close();
    expect(fast.rows).toBe(5000);
    await duck.run(`CREATE TABLE slow ${COLUMNS}`);
    await duck.appendColumns(
      'slow',
      TYPES,
      TYPES.map((_, c) => data.map((r) => r[c])),
    );
    const got = await read('fast');
    expect(got).toEqual(await read('slow'));
    expect(got[0]).toEqual({ k: null, x: null, s: null, y: null, seq: 0n });
    expect(got[7].x).toBe('nan');
    expect(got[8].x).toBe('-0.0');
    const nulls = await duck.one<{ k: bigint; x: bigint; y: bigint }>(
      'SELECT count(*) FILTER (k IS NULL) AS k, count(*) FILTER (x IS NULL) AS x, count(*) FILTER (y IS NULL) AS y FROM fast',
    );
    expect(nulls).toEqual({ k: 455n, x: 385n, y: 3n });
  });

  it('refuses a value that does not fit an INTEGER or DOUBLE column, naming the column and row', async () => {
    await duck.run(`CREATE TABLE bad ${COLUMNS}`);
    const a = await duck.openAppender('bad', TYPES);
    a.push([1, 1.5, 's', 2, 0n]);
    expect(() => a.push([1.5, 1, 's', 2, 1n])).toThrow(
      /column 1 \(INTEGER\) of row 2: 1\.5 is not a 32-bit integer/,
    );
    expect(() => a.push([2 ** 31, 1, 's', 2, 1n])).toThrow(/is not a 32-bit integer/);
    expect(() => a.push([null, '1', 's', 2, 1n])).toThrow(/column 2 \(DOUBLE\) of row 2: 1 is not a number/);
    // A refused row leaves nothing behind: not its NULL in column 1 either.
    a.push([3, 2.5, 't', 4, 2n]);
    a.close();
    expect(await read('bad')).toEqual([
      { k: 1, x: '1.5', s: 's', y: 2, seq: 0n },
      { k: 3, x: '2.5', s: 't', y: 4, seq: 2n },
    ]);
  });

  it("empties its one chunk between appends: a chunk's NULLs and strings do not carry into the next", async () => {
    await duck.run(`CREATE TABLE reused ${COLUMNS}`);
    const a = await duck.openAppender('reused', TYPES);
    // The first chunk is all NULL but seq, the next two (a full one and a short one) have no NULL at all.
    for (let i = 0; i < 2048; i++) a.push([null, null, null, null, BigInt(i)]);
    for (let i = 2048; i < 5000; i++) a.push([i, i / 2, 'v', -i, BigInt(i)]);
    a.close();
    const counts = await duck.one<Record<string, bigint>>(
      `SELECT count(k) AS k, count(x) AS x, count(s) AS s, count(y) AS y,
              count(*) FILTER (k = seq AND x = seq / 2 AND s = 'v' AND y = -seq) AS right FROM reused`,
    );
    expect(counts).toEqual({ k: 2952n, x: 2952n, s: 2952n, y: 2952n, right: 2952n });
  });

  it('finds the native chunk it copies into (else every chunk takes the slower per-value path)', () => {
    const chunk = DuckDBDataChunk.create([INTEGER, DOUBLE], 3);
    const native = (chunk as unknown as { chunk?: unknown }).chunk;
    expect(native).toBeDefined();
    // The handle is the one the bindings read a column vector of.
    expect(bindings.data_chunk_get_vector(native as DataChunk, 1)).toBeDefined();
    expect(bindings.data_chunk_get_size(native as DataChunk)).toBe(3);
  });
});

describe('TableAppender.pushColumns', () => {
  const NUMERIC = [INTEGER, DOUBLE, DOUBLE, INTEGER];
  const COLS = '(k INTEGER, x DOUBLE, y DOUBLE, seq INTEGER)';
  const readAll = (table: string) =>
    duck.all(`SELECT k, x::VARCHAR AS x, y::VARCHAR AS y, seq FROM ${table} ORDER BY seq`);

  it('appends the rows push() would, across chunk boundaries, with constants and NULL columns', async () => {
    await duck.run(`CREATE TABLE by_rows ${COLS}`);
    await duck.run(`CREATE TABLE by_columns ${COLS}`);
    const rowWise = await duck.openAppender('by_rows', NUMERIC);
    const columnWise = await duck.openAppender('by_columns', NUMERIC);
    let seq = 0;
    // Runs of 1, 2047, 2049 and 5000 rows: runs that fill, straddle and span several chunks.
    for (const [run, length] of [1, 2047, 2049, 5000].entries()) {
      const x = Float64Array.from({ length }, (_, i) => (i === 3 ? Number.NaN : (i - 1000) / 7));
      const seqs = Int32Array.from({ length }, (_, i) => seq + i);
      for (let i = 0; i < length; i++) rowWise.push([run, x[i], null, seqs[i]]);
      columnWise.pushColumns([run, x, null, seqs], length);
      seq += length;
    }
    columnWise.push([9, 1.5, 2.5, seq]);
    rowWise.push([9, 1.5, 2.5, seq]);
    rowWise.close();
    columnWise.close();
    expect(columnWise.rows).toBe(seq + 1);
    const got = await readAll('by_columns');
    expect(got).toEqual(await readAll('by_rows'));
    expect(got[4]).toEqual({ k: 1, x: 'nan', y: null, seq: 4 });
    expect(got.at(-1)).toEqual({ k: 9, x: '1.5', y: '2.5', seq });
  });

  it('refuses columns of the wrong kind or length, naming the column, and appends nothing', async () => {
    await duck.run(`CREATE TABLE refused ${COLS}`);
    const a = await duck.openAppender('refused', NUMERIC);
    const x = new Float64Array(3);
    expect(() => a.pushColumns([1.5, x, null, 0], 3)).toThrow(
      /column 1 \(INTEGER\).*1\.5 is not a 32-bit integer/,
    );
    expect(() => a.pushColumns([1, new Int32Array(3), null, 0], 3)).toThrow(
      /column 2 \(DOUBLE\).*expected a Float64Array, got Int32Array/,
    );
    expect(() => a.pushColumns([1, x, null, 0], 4)).toThrow(/column 2 \(DOUBLE\).*3 values for 4 rows/);
    expect(() => a.pushColumns([1, x, null], 3)).toThrow(/3 columns for a table of 4/);
    a.close();
    expect(a.rows).toBe(0);
    expect(await readAll('refused')).toEqual([]);
  });
});
