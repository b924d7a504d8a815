import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOUBLE, VARCHAR } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Duck, DuckOutOfMemoryError, PARQUET_ROW_GROUP_ROWS, physicalMemoryBytes } from './open-duck.ts';
import { quoteIdent, quoteLiteral } from './quote-ident.ts';
import { type NumberLists, streamArrow, streamNumberLists, streamNumbers } from './stream-arrow.ts';

// Each test its own database and folder: with one shared across the file, a query slowed by a loaded
// machine cascaded into wrong results in the tests after it (issue 50).
let dir: string;
let duck: Duck;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'asof-duck-'));
  duck = await Duck.open({ threads: 2 });
});
afterEach(() => {
  duck.close();
  rmSync(dir, { recursive: true, force: true });
});

const T_ROWS = 5000;
/** Table t (s VARCHAR, v DOUBLE): T_ROWS rows, s = s0…s6 in turn and v = i / 2, appended through data chunks. */
async function createT(d: Duck): Promise<void> {
  await d.run('CREATE TABLE t (s VARCHAR, v DOUBLE)');
  await d.appendColumns(
    't',
    [VARCHAR, DOUBLE],
    [Array.from({ length: T_ROWS }, (_, i) => `s${i % 7}`), Array.from({ length: T_ROWS }, (_, i) => i / 2)],
  );
}

const UNITS: Record<string, number> = { bytes: 1, KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30, TiB: 2 ** 40 };
/** The unit of a size as DuckDB shows a setting, e.g. 953.6 MiB. */
function unitOf(shown: string): number {
  return UNITS[shown.split(' ')[1]] ?? Number.NaN;
}
function bytesOf(shown: string): number {
  return Number(shown.split(' ')[0]) * unitOf(shown);
}

describe('Duck', () => {
  it('runs in UTC and binds values', async () => {
    const row = await duck.one<{ tz: string; x: number }>(
      "SELECT strftime(TIMESTAMPTZ '2021-07-20 16:00:00-04:00', '%Y-%m-%dT%H:%M:%S') AS tz, $x::DOUBLE * 2 AS x",
      { x: 21 },
    );
    expect(row).toEqual({ tz: '2021-07-20T20:00:00', x: 42 });
  });

  it('pins TimeZone to UTC on every connection, whatever the machine (TZ) says', async () => {
    const sibling = await duck.connect();
    try {
      for (const d of [duck, sibling]) {
        const row = await d.one<{ tz: string; epoch: bigint }>(
          "SELECT current_setting('TimeZone') AS tz, epoch_us(TIMESTAMP '1970-01-01 00:00:00'::TIMESTAMPTZ) AS epoch",
        );
        expect(row).toEqual({ tz: 'UTC', epoch: 0n });
      }
    } finally {
      sibling.close();
    }
  });

  it("lets the block allocator keep freed buffer blocks up to the memory limit, whether the limit is given or DuckDB's", async () => {
    const limited = await Duck.open({ memoryLimit: '1GB' });
    try {
      for (const [d, limit] of [
        [limited, '953.6 MiB'],
        [duck, undefined],
      ] as const) {
        const row = await d.one<{ pool: string; limit: string }>(
          "SELECT current_setting('block_allocator_memory') AS pool, current_setting('memory_limit') AS limit",
        );
        // Shown to 0.1 of a unit; the pool is the limit rounded down to whole 256 KiB blocks.
        const pool = bytesOf(row.pool);
        expect(pool).toBeGreaterThan(0);
        expect(Math.abs(bytesOf(row.limit) - pool)).toBeLessThanOrEqual(0.1 * unitOf(row.limit) + 262_144);
        if (limit) expect(row.limit).toBe(limit);
      }
    } finally {
      limited.close();
    }
  });

  it('opens with a limit above what the block allocator may reserve, keeping the pool at 80% of RAM', async () => {
    // '1000TB' reads back as "909.4 TiB"; before, current_setting() of a limit ≥ 1 PiB ("1.0 PiB") was not
    // parseable by DuckDB, and a limit above 80% of RAM made the pool's SET fail (docs/decisions/0062).
    for (const memoryLimit of ['1000TB', '100%']) {
      const huge = await Duck.open({ memoryLimit });
      try {
        const row = await huge.one<{ pool: string }>(
          "SELECT current_setting('block_allocator_memory') AS pool",
        );
        expect(bytesOf(row.pool), memoryLimit).toBeLessThanOrEqual(physicalMemoryBytes() * 0.8 + 262_144);
        expect(bytesOf(row.pool), memoryLimit).toBeGreaterThan(physicalMemoryBytes() * 0.7);
      } finally {
        huge.close();
      }
    }
  });

  it("turns DuckDB's out-of-memory text into one line naming the setting, its value and what to do", async () => {
    const small = await Duck.open({
      memoryLimit: '64MB',
      memoryLimitSource: { field: 'duckdb.memory_limit', file: 'p.json' },
    });
    try {
      // A list aggregate of 30M integers cannot spill: it needs ~240 MB at once.
      const err = await small.all('SELECT list(range) AS l FROM range(30000000)').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DuckOutOfMemoryError);
      const message = (err as Error).message;
      expect(message.split('\n')).toHaveLength(1);
      expect(message).toMatch(
        /^DuckDB ran out of memory at duckdb\.memory_limit "64MB" in p\.json \(.*\); next: raise duckdb\.memory_limit \(at least 64MB; the default universe builds at 200MB/,
      );
      expect(message).not.toMatch(/SET memory_limit|Possible solutions/);
      expect((err as DuckOutOfMemoryError).code).toBe('DUCKDB_OUT_OF_MEMORY');
    } finally {
      small.close();
    }
  });

  it('creates a view of a model query with its parameters bound, each view keeping its own values', async () => {
    // $cut is a whole token only: the literal '$cutoff' must come through as written.
    const query = `-- rows below $cut (a comment naming $cut)
      SELECT range AS x, '$cutoff' AS label FROM range(10) WHERE range < $cut AND $flag`;
    await duck.createView('below_four', query, { cut: 4, flag: true, unused: 'x' });
    await duck.createView('below_seven', query, { cut: 7, flag: true });
    const count = async (view: string) =>
      Number((await duck.one<{ n: bigint }>(`SELECT count(*) AS n FROM ${view}`)).n);
    expect([await count('below_four'), await count('below_seven')]).toEqual([4, 7]);
    expect(await duck.one('SELECT DISTINCT label FROM below_four')).toEqual({ label: '$cutoff' });
    // Re-creating one view rebinds its own values only.
    await duck.createView('below_four', query, { cut: 4, flag: false });
    expect(await count('below_four')).toBe(0);
    expect(await count('below_seven')).toBe(7);
  });

  it('creates a shared view every connection reads, and refuses one with a $parameter', async () => {
    await duck.createView('evens', 'SELECT range AS x FROM range(10) WHERE range % 2 = 0', undefined, {
      shared: true,
    });
    const other = await duck.connect();
    try {
      expect(await other.one('SELECT count(*) AS n FROM evens')).toEqual({ n: 5n });
    } finally {
      other.close();
    }
    // A session variable would be NULL on the other connection: a shared view may not bind one.
    await expect(
      duck.createView(
        'below',
        'SELECT range AS x FROM range(10) WHERE range < $cut',
        { cut: 3 },
        { shared: true },
      ),
    ).rejects.toThrow(/shared view reads no \$parameters/);
    await expect(
      duck.createView('below', 'SELECT range AS x FROM range(10) WHERE range < $cut', undefined, {
        shared: true,
      }),
    ).rejects.toThrow(/shared view reads no \$parameters/);
  });

  it('appends columns through data chunks', async () => {
    await createT(duck);
    const n = T_ROWS;
    const row = await duck.one<{ n: bigint; total: number }>('SELECT count(*) AS n, sum(v) AS total FROM t');
    expect(Number(row.n)).toBe(n);
    expect(row.total).toBe((n * (n - 1)) / 4);
  });

  it('writes byte-identical Parquet for the same ordered query, without leftovers', async () => {
    await createT(duck);
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
    await createT(duck);
    await expect(duck.writeParquet('SELECT * FROM t', join(dir, 'c.parquet'))).rejects.toThrow(/ORDER BY/);
  });

  it('joins sorted parts into the bytes of one sorted COPY when the cuts fall on row groups', async () => {
    const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
    const g = PARQUET_ROW_GROUP_ROWS;
    const n = 7 * g + 1234;
    // Doubles that do not compress away, and NULLs (a validity mask) in one column.
    await duck.run(
      `CREATE TABLE parts_src AS SELECT i, hash(i) / 3.7 AS v, CASE WHEN i % 3 = 0 THEN NULL ELSE i * 0.5 END AS q
       FROM range(${n}) AS r(i)`,
    );
    const whole = join(dir, 'whole.parquet');
    await duck.writeParquet('SELECT * FROM parts_src ORDER BY i', whole);
    const cutInto = async (name: string, cuts: number[]) => {
      const files: string[] = [];
      for (let k = 0; k + 1 < cuts.length; k++) {
        const f = join(dir, `${name}-${k}.parquet`);
        await duck.writeParquet('SELECT * FROM parts_src WHERE i >= $lo AND i < $hi ORDER BY i', f, {
          lo: cuts[k],
          hi: cuts[k + 1],
        });
        files.push(f);
      }
      const out = join(dir, `${name}.parquet`);
      await duck.concatParquet(files, out, { kvMetadata: { asof: 'test' } });
      return out;
    };
    const aligned = await cutInto('aligned', [0, g, 4 * g, 6 * g, n]);
    const alignedOther = await cutInto('aligned-other', [0, 3 * g, n]);
    expect(sha(alignedOther)).toBe(sha(aligned));
    const [order] = await duck.all<{ rows: bigint; bad: bigint; groups: bigint }>(
      `SELECT count(*) AS rows, count(*) FILTER (WHERE i <> rn - 1) AS bad,
         (SELECT count(*) FROM parquet_metadata(${quoteLiteral(aligned)}) WHERE column_id = 0) AS groups
       FROM (SELECT i, row_number() OVER () AS rn FROM read_parquet(${quoteLiteral(aligned)}))`,
    );
    expect(order).toEqual({ rows: BigInt(n), bad: 0n, groups: 8n });
    // The same rows as the single sorted COPY, only the footer's asof entry differs.
    const [diff] = await duck.all<{ d: bigint }>(
      `SELECT count(*) AS d FROM (SELECT * FROM read_parquet(${quoteLiteral(whole)}) EXCEPT ALL
         SELECT * FROM read_parquet(${quoteLiteral(aligned)}))`,
    );
    expect(diff.d).toBe(0n);
    const plain = join(dir, 'aligned-plain.parquet');
    await duck.concatParquet(
      [0, 1, 2, 3].map((k) => join(dir, `aligned-${k}.parquet`)),
      plain,
    );
    expect(sha(plain)).toBe(sha(whole));
    // Cuts off the row groups keep the order, not the bytes (why the parts are cut on row groups).
    const ragged = await cutInto('ragged', [0, 1000, 2 * g + 17, n]);
    expect(sha(ragged)).not.toBe(sha(aligned));
    await duck.run('SET preserve_insertion_order = false');
    try {
      await expect(duck.concatParquet([whole], join(dir, 'x.parquet'))).rejects.toThrow(
        /preserve_insertion_order/,
      );
    } finally {
      await duck.run('SET preserve_insertion_order = true');
    }
  });

  it('streams into arrow tables', async () => {
    await createT(duck);
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

  it('streams every numeric type as the values duck.all gives, NULL as NaN, with or without NULLs in a chunk', async () => {
    // 5,000 rows: chunks of 2,048 with no NULL (the typed-array path) and a last one with NULLs (per item).
    const sql = `SELECT (i % 100)::TINYINT - 50 AS t8, i::SMALLINT AS t16, i::INTEGER - 2500 AS t32, i::BIGINT * 1000000007 AS t64,
        (i % 200)::UTINYINT AS u8, i::USMALLINT AS u16, i::UINTEGER AS u32, i::UBIGINT AS u64, i::FLOAT / 8 AS f32,
        hash(i) / 7.0 AS f64, CASE WHEN i >= 4500 AND i % 2 = 0 THEN NULL ELSE i * 0.25 END AS with_null,
        'x' || i AS s, i % 2 = 0 AS b
      FROM range(5000) AS r(i) ORDER BY i`;
    const want = await duck.all<Record<string, number | bigint | null | string | boolean>>(sql);
    let row = 0;
    await streamArrow(duck, sql, undefined, (batch) => {
      for (const name of Object.keys(want[0])) {
        const got = batch.getChild(name)!.toArray() as ArrayLike<unknown>;
        for (let i = 0; i < batch.numRows; i++) {
          const w = want[row + i][name];
          const expected = w === null ? Number.NaN : typeof w === 'bigint' ? Number(w) : w;
          expect(got[i], `${name} row ${row + i}`).toEqual(expected);
        }
      }
      row += batch.numRows;
    });
    expect(row).toBe(5000);
  });

  it('streams numeric columns as Float64Arrays with the values streamArrow gives, and refuses text', async () => {
    const sql = `SELECT i::INTEGER - 2500 AS t32, i::BIGINT * 1000000007 AS t64, (i % 7)::UTINYINT AS u8, hash(i) / 7.0 AS f64,
        CASE WHEN i >= 4500 AND i % 2 = 0 THEN NULL ELSE i * 0.25 END::DOUBLE AS with_null, NULL::DOUBLE AS all_null
      FROM range(5000) AS r(i) ORDER BY i`;
    const names = ['t32', 't64', 'u8', 'f64', 'with_null', 'all_null'];
    const viaArrow: number[][] = names.map(() => []);
    await streamArrow(duck, sql, undefined, (batch) => {
      names.forEach((n, c) => {
        viaArrow[c].push(...(batch.getChild(n)!.toArray() as Float64Array));
      });
    });
    const viaNumbers: number[][] = names.map(() => []);
    let chunks = 0;
    const rows = await streamNumbers(duck, sql, undefined, (columns, n) => {
      chunks++;
      expect(columns).toHaveLength(names.length);
      columns.forEach((col, c) => {
        expect(col).toBeInstanceOf(Float64Array);
        expect(col.length).toBe(n);
        viaNumbers[c].push(...col);
      });
    });
    expect(rows).toBe(5000);
    expect(chunks).toBe(3);
    expect(viaNumbers).toEqual(viaArrow);
    expect(viaNumbers[4].filter(Number.isNaN)).toHaveLength(250);
    await expect(streamNumbers(duck, "SELECT 1 AS n, 'x' AS s", undefined, () => {})).rejects.toThrow(
      /column s is VARCHAR, not a number/,
    );
  });

  it('hands over arrays that stay valid after the stream moves on (they are copies, not views of DuckDB memory)', async () => {
    // numericColumn and numberListsOf pass @duckdb/node-api's own typed arrays on without copying them.
    const kept: { doubles: Float64Array; lists: NumberLists }[] = [];
    await streamNumberLists(
      duck,
      'SELECT i * 0.5::DOUBLE AS d, [i, i + 1]::DOUBLE[] AS l FROM range(20000) AS r(i) ORDER BY i',
      undefined,
      ([doubles], [lists]) => {
        kept.push({ doubles, lists });
      },
    );
    (globalThis as { gc?: () => void }).gc?.();
    await duck.all('SELECT sum(i * 0.25) FROM range(2000000) AS r(i)'); // reuses whatever DuckDB freed
    let i = 0;
    for (const { doubles, lists } of kept) {
      for (let r = 0; r < doubles.length; r++, i++) {
        expect(doubles[r]).toBe(i * 0.5);
        expect(lists.length[r]).toBe(2);
        expect([lists.items[lists.start[r]], lists.items[lists.start[r] + 1]]).toEqual([i, i + 1]);
      }
    }
    expect(i).toBe(20000);
  });

  it('streams lists of numbers as one flat array per column and chunk, with numeric columns beside them', async () => {
    // 3,000 groups: two chunks. Group g holds g % 5 values (an empty list for 0), one of them NULL when g % 11 = 0.
    const sql = `SELECT g::INTEGER AS g, list(v::INTEGER ORDER BY v) AS ints,
        list(CASE WHEN g % 11 = 0 AND v = 1 THEN NULL ELSE v / 4 END ORDER BY v) AS quarters, (g * 2)::BIGINT AS twice
      FROM (SELECT g, unnest(range(g % 5)) AS v FROM range(3000) AS r(g)) GROUP BY g
      UNION ALL SELECT g::INTEGER, []::INTEGER[], []::DOUBLE[], (g * 2)::BIGINT FROM range(3000) AS r(g) WHERE g % 5 = 0
      ORDER BY g`;
    const got = new Map<number, { ints: number[]; quarters: number[]; twice: number }>();
    let chunks = 0;
    const rows = await streamNumberLists(duck, sql, undefined, ([g, twice], [ints, quarters], n) => {
      chunks++;
      expect(ints.items).toBeInstanceOf(Int32Array); // a list keeps its type: no conversion per value
      for (let i = 0; i < n; i++) {
        const take = (l: NumberLists) => Array.from(l.items.subarray(l.start[i], l.start[i] + l.length[i]));
        got.set(g[i], { ints: take(ints), quarters: take(quarters), twice: twice[i] });
      }
    });
    expect(rows).toBe(3000);
    expect(chunks).toBe(2);
    for (const g of [0, 1, 4, 11, 2047, 2048, 2999]) {
      const ints = Array.from({ length: g % 5 }, (_, v) => v);
      const quarters = ints.map((v) => (g % 11 === 0 && v === 1 ? Number.NaN : v / 4));
      expect(got.get(g), `group ${g}`).toEqual({ ints, quarters, twice: 2 * g });
    }
    await expect(streamNumberLists(duck, 'SELECT NULL::INTEGER[] AS l', undefined, () => {})).rejects.toThrow(
      /column l has a NULL list in row 0; coalesce it/,
    );
    await expect(streamNumberLists(duck, "SELECT ['a'] AS l", undefined, () => {})).rejects.toThrow(
      /column l is VARCHAR\[\], not a list of numbers/,
    );
  });

  it('quotes identifiers', () => {
    expect(quoteIdent('a"b')).toBe('"a""b"');
    expect(() => quoteIdent('')).toThrow();
  });
});
