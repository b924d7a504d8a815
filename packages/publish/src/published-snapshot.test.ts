import { Duck, loadQuery } from '@asof/duck';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISH_SQL } from './write-published-config.ts';

describe('published_snapshot.sql: one row per series as known at the cutoff', () => {
  let duck: Duck;
  beforeAll(async () => {
    duck = await Duck.open({ threads: 1 });
  });
  afterAll(() => duck.close());

  it('takes the last vintage of each period, leaves out withdrawn periods, orders the lists by time', async () => {
    await duck.run(`CREATE TEMP VIEW publish_observations_source AS
      SELECT * FROM (VALUES
        ('b', 'M', TIMESTAMPTZ '2020-02-01 00:00:00+00', TIMESTAMPTZ '2020-02-15 00:00:00+00', 2.0),
        ('a', 'M', TIMESTAMPTZ '2020-02-01 00:00:00+00', TIMESTAMPTZ '2020-02-15 00:00:00+00', 20.0),
        ('a', 'M', TIMESTAMPTZ '2020-01-01 00:00:00+00', TIMESTAMPTZ '2020-01-15 00:00:00+00', 10.0),
        ('a', 'M', TIMESTAMPTZ '2020-01-01 00:00:00+00', TIMESTAMPTZ '2020-03-15 00:00:00+00', 11.0),
        ('a', 'M', TIMESTAMPTZ '2020-03-01 00:00:00+00', TIMESTAMPTZ '2020-03-15 00:00:00+00', 30.0),
        ('a', 'M', TIMESTAMPTZ '2020-03-01 00:00:00+00', TIMESTAMPTZ '2020-04-15 00:00:00+00', NULL)
      ) AS t(series_id, frequency, "timestamp", available_at, value)`);
    const rows = await duck.all<{ id: string; frequency: string; n: bigint; target: number[] }>(
      `SELECT id, frequency, len("timestamp") AS n, target FROM (${loadQuery(PUBLISH_SQL, 'published_snapshot')})`,
    );
    expect(rows.map((r) => ({ ...r, n: Number(r.n), target: [...r.target] }))).toEqual([
      { id: 'a', frequency: 'M', n: 2, target: [11, 20] },
      { id: 'b', frequency: 'M', n: 1, target: [2] },
    ]);
  });
});
