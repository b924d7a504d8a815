import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOUBLE, VARCHAR } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { Duck } from './open-duck.ts';
import { quoteIdent } from './quote-ident.ts';
import { streamArrow } from './stream-arrow.ts';

const dir = mkdtempSync(join(tmpdir(), 'asof-duck-'));
const duck = await Duck.open({ threads: 2 });
afterAll(() => duck.close());

describe('Duck', () => {
  it('runs in UTC and binds values', async () => {
    const row = await duck.one<{ tz: string; x: number }>(
      "SELECT strftime(TIMESTAMPTZ '2021-07-20 16:00:00-04:00', '%Y-%m-%dT%H:%M:%S') AS tz, $x::DOUBLE * 2 AS x",
      { x: 21 },
    );
    expect(row).toEqual({ tz: '2021-07-20T20:00:00', x: 42 });
  });

  it('appends columns through data chunks', async () => {
    await duck.run('CREATE TABLE t (s VARCHAR, v DOUBLE)');
    const n = 5000;
    await duck.appendColumns(
      't',
      [VARCHAR, DOUBLE],
      [Array.from({ length: n }, (_, i) => `s${i % 7}`), Array.from({ length: n }, (_, i) => i / 2)],
    );
    const row = await duck.one<{ n: bigint; total: number }>('SELECT count(*) AS n, sum(v) AS total FROM t');
    expect(Number(row.n)).toBe(n);
    expect(row.total).toBe((n * (n - 1)) / 4);
  });

  it('writes byte-identical Parquet for the same ordered query, without leftovers', async () => {
    const q = 'SELECT s, v FROM t WHERE v >= $min ORDER BY s, v';
    await duck.writeParquet(q, join(dir, 'a.parquet'), { min: 10 });
    await duck.writeParquet(q, join(dir, 'b.parquet'), { min: 10 });
    expect(readFileSync(join(dir, 'a.parquet')).equals(readFileSync(join(dir, 'b.parquet')))).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['a.parquet', 'b.parquet']);
    const back = await duck.one<{ n: bigint }>(
      `SELECT count(*) AS n FROM read_parquet('${join(dir, 'a.parquet')}')`,
    );
    expect(Number(back.n)).toBe(4980);
  });

  it('refuses an unordered Parquet write', async () => {
    await expect(duck.writeParquet('SELECT * FROM t', join(dir, 'c.parquet'))).rejects.toThrow(/ORDER BY/);
  });

  it('streams into arrow tables', async () => {
    let rows = 0;
    let sum = 0;
    await streamArrow(duck, 'SELECT s, v FROM t ORDER BY v', undefined, (batch) => {
      rows += batch.numRows;
      const v = batch.getChild('v')!.toArray() as Float64Array;
      for (const x of v) sum += x;
      expect(typeof batch.getChild('s')!.get(0)).toBe('string');
    });
    expect(rows).toBe(5000);
    expect(sum).toBe((5000 * 4999) / 4);
  });

  it('quotes identifiers', () => {
    expect(quoteIdent('a"b')).toBe('"a""b"');
    expect(() => quoteIdent('')).toThrow();
  });
});
