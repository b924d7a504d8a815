import { Duck } from '@asof/duck';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PARAMS, day, isoDay, loadSplitFixture, runSplitModels } from './split-fixture.ts';

// Given/expect tests of the .sql models on in-memory tables. Times are whole days after 2020-01-01 (UTC).
// Series 'a' (frequency Q, horizon 2, lookback 2): steps on days 10, 20, 30, 40, 50, 60.
//   day 10 released day 11; day 20 released day 45 (very late); day 30 released day 31, revised day 55;
//   day 40 released day 41; day 50 released day 51; day 60 released day 61.
const given: [number, number, number][] = [
  [10, 11, 1],
  [20, 45, 2],
  [30, 31, 3],
  [30, 55, 3.5],
  [40, 41, 4],
  [50, 51, 5],
  [60, 61, 6],
];

let duck: Duck;
beforeAll(async () => {
  duck = await Duck.open({ threads: 1 });
  await loadSplitFixture(duck, 'a', given, { nRevisions: 1, nObs: 0 });
});
afterAll(() => duck.close());

const run = (params: Record<string, string | boolean>) => runSplitModels(duck, params);
const base = BASE_PARAMS;
const d = isoDay;

describe('split models (given/expect)', () => {
  it('cuts each input window from the as-of view, reaching back past steps not yet released', async () => {
    await run(base);
    const got = await duck.all<{ o: string; t: string; value: number }>(
      `SELECT strftime(origin, '%Y-%m-%d') AS o, strftime("timestamp", '%Y-%m-%d') AS t, value FROM inputs ORDER BY origin, "timestamp"`,
    );
    const by = (o: number) => got.filter((r) => r.o === d(o)).map((r) => [r.t, r.value]);
    // At day 40, days 20 (published 45) and 40 (published 41) are not public: the two latest public
    // timestamps are 30 and 10, two grid steps further back than a plain "last two steps" window.
    expect(by(30)).toEqual([[d(10), 1]]);
    expect(by(40)).toEqual([
      [d(10), 1],
      [d(30), 3],
    ]);
    // At day 50: day 20 released (45), day 40 released (41), day 30 not yet revised (55).
    expect(by(50)).toEqual([
      [d(30), 3],
      [d(40), 4],
    ]);
    expect(by(60)).toEqual([
      [d(40), 4],
      [d(50), 5],
    ]);
  });

  it("places the training snapshot's first and last timestamps on the grid (train_series)", async () => {
    const ends = () =>
      duck.all<{ first: number; last: number; n: number }>(
        'SELECT first_step_index AS first, last_step_index AS last, n_obs::INTEGER AS n FROM train_series',
      );
    // Cut at day 50: days 10, 20, 30, 40 were public (20 at day 45), steps 1…4, no hole.
    await run({ ...base, train_cutoff: `${d(50)}T00:00:00Z` });
    expect(await ends()).toEqual([{ first: 1, last: 4, n: 4 }]);
    // Cut at day 42: day 20 is not public yet, so the snapshot is days 10, 30, 40: steps 1 and 4 apart by
    // 3 with 3 rows, a hole (whoever rebuilds the history then places its ends only).
    await run({ ...base, train_cutoff: `${d(42)}T00:00:00Z` });
    expect(await ends()).toEqual([{ first: 1, last: 4, n: 3 }]);
  });

  it('takes targets from the first release or the latest vintage and dates their knowledge', async () => {
    await run(base);
    const first = await duck.all<{ o: string; step: number; value: number; k: string | null }>(
      `SELECT strftime(t.origin, '%Y-%m-%d') AS o, t.step, t.value, strftime(o.target_known_at, '%Y-%m-%d') AS k
       FROM targets t JOIN origins o USING (series_id, origin) ORDER BY t.origin, t.step`,
    );
    expect(first.filter((r) => r.o === d(20)).length).toBe(0); // day 20 is before eval_start
    expect(first.filter((r) => r.o === d(30)).map((r) => [r.step, r.value, r.k])).toEqual([
      [1, 4, d(51)],
      [2, 5, d(51)],
    ]);
    const origin20 = `SELECT t.value, strftime(o.target_known_at, '%Y-%m-%d') AS k FROM targets t
       JOIN origins o USING (series_id, origin) WHERE origin = ${day(20)} ORDER BY step`;
    await run({ ...base, eval_start: '2020-01-21T00:00:00Z' });
    expect(await duck.all(origin20)).toEqual([
      { value: 3, k: d(41) },
      { value: 4, k: d(41) },
    ]);
    await run({ ...base, eval_start: '2020-01-21T00:00:00Z', target_vintage: 'latest' });
    expect(await duck.all(origin20)).toEqual([
      { value: 3.5, k: d(55) },
      { value: 4, k: d(55) },
    ]);
    await run(base);
    const pending = await duck.all<{ o: string; n: number; k: string | null }>(
      `SELECT strftime(origin, '%Y-%m-%d') AS o, n_target_steps_known AS n, target_known_at AS k FROM origins ORDER BY origin`,
    );
    expect(pending.map((r) => [r.o, r.n, r.k])).toEqual([
      [d(30), 2, expect.anything()],
      [d(40), 2, expect.anything()],
      [d(50), 1, null],
      [d(60), 0, null],
    ]);
  });

  it('keeps the training snapshot strictly before the cutoff, latest vintage then', async () => {
    await run({ ...base, train_cutoff: '2020-02-25T00:00:00Z' }); // day 55: the revision of day 30 is excluded
    const train = await duck.all<{ t: string; value: number }>(
      `SELECT strftime("timestamp", '%Y-%m-%d') AS t, value FROM train_observations ORDER BY "timestamp"`,
    );
    expect(train).toEqual([
      { t: d(10), value: 1 },
      { t: d(20), value: 2 },
      { t: d(30), value: 3 },
      { t: d(40), value: 4 },
      { t: d(50), value: 5 },
    ]);
  });

  it('labels windows and drops origins that straddle the cutoff', async () => {
    // c = day 35, r = day 58: origin 30's targets (40, 50) are known on day 51 > c → straddles; origin 40's
    // targets (50, 60): 60 is published on day 61 > r → T3; origin 50 → T3.
    await run({
      ...base,
      has_cutoff: true,
      model_cutoff: '2020-02-05T00:00:00Z',
      run_date: '2020-02-28T00:00:00Z',
    });
    const got = await duck.all<{ o: string; w: string }>(
      `SELECT strftime(origin, '%Y-%m-%d') AS o, "window" AS w FROM origin_candidates ORDER BY origin`,
    );
    expect(got.map((r) => [r.o, r.w])).toEqual([
      [d(30), 'straddles_cutoff'],
      [d(40), 'T3'],
      [d(50), 'T3'],
    ]);
    const served = await duck.all<{ n: bigint }>(`SELECT count(*) AS n FROM origins`);
    expect(Number(served[0].n)).toBe(2);
  });
});

describe('split models: membership (docs/decisions/0021)', () => {
  it('serves an origin only while the series entity is a member at it, as known then', async () => {
    const m = await Duck.open({ threads: 1 });
    try {
      // Entity X: a member from day 35 (say, an index addition announced then) until day 55 (its removal).
      await loadSplitFixture(m, 'x', given, {
        nRevisions: 1,
        nObs: 0,
        entity: 'X',
        spans: [
          ['X', null, 35, false],
          ['X', 35, 55, true],
          ['X', 55, null, false],
        ],
      });
      await runSplitModels(m, base);
      const candidates = await m.all<{ o: string; member: boolean }>(
        `SELECT strftime(origin, '%Y-%m-%d') AS o, member FROM origin_candidates ORDER BY origin`,
      );
      expect(candidates.map((r) => [r.o, r.member])).toEqual([
        [d(30), false],
        [d(40), true],
        [d(50), true],
        [d(60), false],
      ]);
      const served = await m.all<{ o: string }>(
        `SELECT strftime(origin, '%Y-%m-%d') AS o FROM origins ORDER BY origin`,
      );
      expect(served.map((r) => r.o)).toEqual([d(40), d(50)]);
      const inputs = await m.all<{ o: string }>(
        `SELECT DISTINCT strftime(origin, '%Y-%m-%d') AS o FROM inputs ORDER BY o`,
      );
      expect(inputs.map((r) => r.o)).toEqual([d(40), d(50)]);
      const targets = await m.all<{ o: string }>(
        `SELECT DISTINCT strftime(origin, '%Y-%m-%d') AS o FROM targets ORDER BY o`,
      );
      expect(targets.map((r) => r.o)).toEqual([d(40), d(50)]);
    } finally {
      m.close();
    }
  });
});
