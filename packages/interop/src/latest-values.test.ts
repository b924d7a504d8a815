import { join } from 'node:path';
import { Duck, listValue, loadQuery } from '@asof/duck';
import { describe, expect, it } from 'vitest';
import { SQL_DIR } from './stage-universe.ts';

// Given observations with a revision and a withdrawal, latest_values keeps the latest vintage at $as_of and
// drops a timestamp whose current row is a withdrawal (as as_of_view.sql does for one series).
describe('latest_values.sql', () => {
  it('picks the latest vintage per (series, timestamp) and drops withdrawals', async () => {
    const duck = await Duck.open({ threads: 1 });
    try {
      const dir = (await import('node:os')).tmpdir();
      const file = join(dir, `asof-interop-latest-${process.pid}.parquet`);
      await duck.run(
        `COPY (SELECT * FROM (VALUES
           ('a', '2020-01-31T00:00:00Z'::TIMESTAMPTZ, '2020-02-01T00:00:00Z'::TIMESTAMPTZ, 1.0),
           ('a', '2020-01-31T00:00:00Z'::TIMESTAMPTZ, '2020-03-01T00:00:00Z'::TIMESTAMPTZ, 1.5),
           ('a', '2020-02-29T00:00:00Z'::TIMESTAMPTZ, '2020-03-01T00:00:00Z'::TIMESTAMPTZ, 2.0),
           ('a', '2020-02-29T00:00:00Z'::TIMESTAMPTZ, '2020-04-01T00:00:00Z'::TIMESTAMPTZ, NULL),
           ('b', '2020-01-31T00:00:00Z'::TIMESTAMPTZ, '2020-02-01T00:00:00Z'::TIMESTAMPTZ, 7.0)
         ) AS t(series_id, "timestamp", available_at, value)) TO '${file}' (FORMAT parquet)`,
      );
      const at = async (asOf: string) =>
        (
          await duck.all<{ series_id: string; value: number }>(
            `SELECT series_id, value FROM (${loadQuery(SQL_DIR, 'latest_values')})`,
            { observation_files: listValue([file]), as_of: asOf },
          )
        ).map((r) => [r.series_id, r.value]);
      expect(await at('infinity')).toEqual([
        ['a', 1.5],
        ['b', 7],
      ]);
      expect(await at('2020-03-15T00:00:00Z')).toEqual([
        ['a', 1.5],
        ['a', 2],
        ['b', 7],
      ]);
      expect(await at('2020-02-15T00:00:00Z')).toEqual([
        ['a', 1],
        ['b', 7],
      ]);
    } finally {
      duck.close();
    }
  });
});
