import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeParquet } from './describe-parquet.ts';
import { Duck } from './open-duck.ts';

const dir = mkdtempSync(join(tmpdir(), 'asof-describe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('describeParquet', () => {
  it('reads rows, column types and time bounds back from the written file', async () => {
    const duck = await Duck.open({ threads: 1 });
    try {
      const file = join(dir, 'a.parquet');
      await duck.writeParquet(
        `SELECT i AS id, TIMESTAMPTZ '2020-01-01 00:00:00+00' + INTERVAL (i) DAY AS "timestamp",
           TIMESTAMPTZ '2020-01-02 12:30:00.000001+00' + INTERVAL (i) DAY AS available_at
         FROM range(3) AS r(i) ORDER BY id`,
        file,
      );
      const d = await describeParquet(duck, file, ['timestamp', 'available_at']);
      expect(d).toEqual({
        rows: 3,
        columns: ['id:BIGINT', 'timestamp:TIMESTAMP WITH TIME ZONE', 'available_at:TIMESTAMP WITH TIME ZONE'],
        min_timestamp: '2020-01-01T00:00:00.000000Z',
        max_timestamp: '2020-01-03T00:00:00.000000Z',
        min_available_at: '2020-01-02T12:30:00.000001Z',
        max_available_at: '2020-01-04T12:30:00.000001Z',
      });
      const plain = await describeParquet(duck, file);
      expect([plain.min_timestamp, plain.max_available_at, plain.rows]).toEqual([null, null, 3]);
    } finally {
      duck.close();
    }
  });
});
