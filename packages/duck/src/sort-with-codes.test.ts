import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Duck, PARQUET_ROW_GROUP_ROWS } from './open-duck.ts';
import { createTextEnum, sortWithCodes } from './sort-with-codes.ts';

const dir = mkdtempSync(join(tmpdir(), 'asof-codes-'));
// A database per test: one slow query on a loaded machine cannot spill into the next test (issue 50).
let duck: Duck;
beforeEach(async () => {
  duck = await Duck.open({ threads: 2 });
});
afterEach(() => duck.close());

describe('sortWithCodes', () => {
  // Several row groups, in no order, on two threads: long texts (heap strings), short ones, NULLs, and a
  // sort key that is not written.
  const n = 5 * PARQUET_ROW_GROUP_ROWS + 777;
  const columns = ['id', 'i', 'v', 'tag', 'note'];
  const from = 'FROM texts_src WHERE i % 11 <> 3';

  const createTexts = () =>
    duck.run(
      `CREATE TABLE texts_src AS SELECT
         'series-with-a-long-identifier-' || lpad(CAST(hash(i) % 5000 AS VARCHAR), 6, '0') AS id,
         CAST(hash(i) % 5000 AS INTEGER) AS k, i, hash(i) / 7.0 AS v,
         CASE i % 3 WHEN 0 THEN 'bar_close' WHEN 1 THEN 'vintage' END AS tag,
         CASE WHEN i % 5 = 0 THEN 'a release note longer than twelve bytes' ELSE 'short' END AS note
       FROM range(${n}) AS r(i) ORDER BY hash(i + 1)`,
    );

  it('writes the bytes of the plain sorted COPY', async () => {
    await createTexts();
    await createTextEnum(duck, 'test_id_text', 'SELECT id FROM texts_src');
    await createTextEnum(duck, 'test_text', 'SELECT tag FROM texts_src UNION ALL SELECT note FROM texts_src');
    const plain = join(dir, 'plain.parquet');
    const coded = join(dir, 'coded.parquet');
    await duck.writeParquet(`SELECT ${columns.join(', ')} ${from} ORDER BY k, i`, plain);
    await duck.writeParquet(
      sortWithCodes(columns, from, 'k, i', { id: 'test_id_text', tag: 'test_text', note: 'test_text' }),
      coded,
    );
    expect(readFileSync(coded).equals(readFileSync(plain))).toBe(true);
    const back = await duck.one<{ n: bigint; nulls: bigint; id: string; tag: string }>(
      `SELECT count(*) AS n, count(*) FILTER (WHERE tag IS NULL) AS nulls, any_value(typeof(id)) AS id,
         any_value(typeof(tag)) AS tag FROM read_parquet('${coded}')`,
    );
    const written = n - (Math.floor((n - 4) / 11) + 1);
    expect(back).toEqual({
      n: BigInt(written),
      nulls: BigInt(Math.floor(written / 3)),
      id: 'VARCHAR',
      tag: 'VARCHAR',
    });
  });

  it('fails loudly when a text is missing from its ENUM', async () => {
    await createTexts();
    await createTextEnum(duck, 'test_partial', "SELECT 'bar_close'");
    await expect(
      duck.writeParquet(
        sortWithCodes(columns, from, 'k, i', { tag: 'test_partial' }),
        join(dir, 'x.parquet'),
      ),
    ).rejects.toThrow(/vintage/);
  });
});
