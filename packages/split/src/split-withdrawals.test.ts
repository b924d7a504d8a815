import { Duck } from '@asof/duck';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryStore } from './history-store.ts';
import { BASE_PARAMS, day, isoDay, loadSplitFixture, runSplitModels } from './split-fixture.ts';
import { splitModels } from './split-models.ts';

// Withdrawals (value NULL rows, docs/decisions/0007) through the split models, given/expect on in-memory
// tables. Times are whole days after 2020-01-01 (UTC). Series 'b' (Q, horizon 2, lookback 2): steps on
// days 10..60, each released the next day; day 20's value is withdrawn on day 35 and published again (2.2)
// on day 57; day 30's value is withdrawn on day 45 for good.
const given: [number, number, number | null][] = [
  [10, 11, 1],
  [20, 21, 2],
  [20, 35, null],
  [20, 57, 2.2],
  [30, 31, 3],
  [30, 45, null],
  [40, 41, 4],
  [50, 51, 5],
  [60, 61, 6],
];
const d = isoDay;
/** Day n after 2020-01-01 (fractions allowed) in epoch microseconds. */
const us = (n: number) => (Date.UTC(2020, 0, 1) + n * 86_400_000) * 1000;

let duck: Duck;
beforeAll(async () => {
  duck = await Duck.open({ threads: 1 });
  // As the build counts it: every vintage after a timestamp's first (3 here), withdrawals included.
  await loadSplitFixture(duck, 'b', given, { nRevisions: 3, nObs: 6 });
});
afterAll(() => duck.close());

const run = (params: Record<string, string | boolean>, models?: readonly string[]) =>
  runSplitModels(duck, params, models);
const base = BASE_PARAMS;

type Served = [string, number][];

describe('split models honour withdrawals', () => {
  it('serves a withdrawn value as input before its withdrawal, not after, and again once restored', async () => {
    await run(base);
    const got = await duck.all<{ o: string; t: string; value: number }>(
      `SELECT strftime(origin, '%Y-%m-%d') AS o, strftime("timestamp", '%Y-%m-%d') AS t, value
       FROM inputs ORDER BY origin, "timestamp"`,
    );
    const by = (o: number): Served => got.filter((r) => r.o === d(o)).map((r) => [r.t, r.value]);
    expect(by(30)).toEqual([
      [d(10), 1],
      [d(20), 2], // withdrawn only on day 35
    ]);
    // Day 40: 20 withdrawn (35), 40 not yet released (41): the window reaches back to 10.
    expect(by(40)).toEqual([
      [d(10), 1],
      [d(30), 3],
    ]);
    // Day 50: 20 and 30 withdrawn; the two latest public steps are 40 and 10.
    expect(by(50)).toEqual([
      [d(10), 1],
      [d(40), 4],
    ]);
    expect(by(60)).toEqual([
      [d(40), 4],
      [d(50), 5],
    ]);
    const windows = await duck.all<{ o: string; n: number; start: string }>(
      `SELECT strftime(origin, '%Y-%m-%d') AS o, n_input_steps AS n, strftime(lookback_start, '%Y-%m-%d') AS start
       FROM origins ORDER BY origin`,
    );
    // n_input_steps and lookback_start describe exactly the rows served.
    for (const w of windows) {
      const rows = got.filter((r) => r.o === w.o);
      expect([w.o, w.n, w.start]).toEqual([w.o, rows.length, rows[0].t]);
    }
    expect(got.every((r) => r.value !== null)).toBe(true);
  });

  it('lists the withdrawals from the train cutoff to the last origin, for rebuilding the as-of view', async () => {
    await run(base);
    const got = await duck.all<{ t: string; a: string }>(
      `SELECT strftime("timestamp", '%Y-%m-%d') AS t, strftime(available_at, '%Y-%m-%d') AS a
       FROM withdrawals ORDER BY "timestamp", available_at`,
    );
    expect(got).toEqual([
      { t: d(20), a: d(35) },
      { t: d(30), a: d(45) },
    ]);
    // A withdrawal before the train cutoff is already applied to the snapshot; one after the last origin
    // concerns no origin.
    await run({ ...base, train_cutoff: '2020-02-10T00:00:00Z' }); // day 40
    const later = await duck.all<{ t: string }>(
      `SELECT strftime("timestamp", '%Y-%m-%d') AS t FROM withdrawals`,
    );
    expect(later).toEqual([{ t: d(30) }]);
    await run({ ...base, run_date: '2020-02-10T00:00:00Z' }); // origins up to day 40 only
    const early = await duck.all<{ t: string }>(
      `SELECT strftime("timestamp", '%Y-%m-%d') AS t FROM withdrawals ORDER BY 1`,
    );
    expect(early).toEqual([{ t: d(20) }]);
  });

  it('the compact layout serves the same rows as the per-origin one', async () => {
    await run(base);
    const perOrigin = await duck.all<{ o: string; t: string; value: number }>(
      `SELECT strftime(origin, '%Y-%m-%d') AS o, strftime("timestamp", '%Y-%m-%d') AS t, value
       FROM inputs ORDER BY origin, "timestamp"`,
    );
    await run(base, splitModels('compact'));
    const compact = await duck.all<{ o: string; t: string; value: number }>(
      `SELECT strftime(w.origin, '%Y-%m-%d') AS o, strftime(r."timestamp", '%Y-%m-%d') AS t, r.value
       FROM origins AS w
       JOIN input_rows AS r ON r.series_id = w.series_id AND r."timestamp" BETWEEN w.lookback_start AND w.origin
         AND r.available_at <= w.origin AND (r.superseded_at IS NULL OR r.superseded_at > w.origin)
       ORDER BY w.origin, r."timestamp"`,
    );
    expect(compact).toEqual(perOrigin);
    expect(perOrigin.length).toBe(8);
    const nulls = await duck.one<{ n: bigint }>('SELECT count(*) AS n FROM input_rows WHERE value IS NULL');
    expect(Number(nulls.n)).toBe(0);
  });

  it('never takes a withdrawal as a label: a step withdrawn by the run date has no target', async () => {
    const targets = async (params: Record<string, string | boolean>) => {
      await run({ ...base, eval_start: '2020-01-11T00:00:00Z', ...params });
      return (
        await duck.all<{ t: string; value: number }>(
          `SELECT strftime("timestamp", '%Y-%m-%d') AS t, value FROM target_values ORDER BY "timestamp"`,
        )
      ).map((r): [string, number] => [r.t, r.value]);
    };
    // Without a run date, every vintage counts: 30 is withdrawn for good (no target); 20 was restored.
    expect(await targets({})).toEqual([
      [d(10), 1],
      [d(20), 2],
      [d(40), 4],
      [d(50), 5],
      [d(60), 6],
    ]);
    expect((await targets({ target_vintage: 'latest' })).find(([t]) => t === d(20))).toEqual([d(20), 2.2]);
    // Run date day 40: day 30's withdrawal (45) is not public yet, day 20's (35) is and not yet undone (57).
    expect(await targets({ run_date: '2020-02-10T00:00:00Z' })).toEqual([
      [d(10), 1],
      [d(30), 3],
    ]);
    // Origin 20's horizon (30, 40) holds the withdrawn step 30: pending, never scored.
    await run({ ...base, eval_start: '2020-01-11T00:00:00Z' });
    const o20 = await duck.one<{ n: number; k: string | null }>(
      `SELECT n_target_steps_known AS n, target_known_at AS k FROM origins WHERE origin = ${day(20)}`,
    );
    expect([o20.n, o20.k]).toEqual([1, null]);
  });

  it('keeps a withdrawn value out of the training snapshot once its withdrawal is public', async () => {
    const train = async (cutoffDay: number) => {
      await run({ ...base, train_cutoff: `${d(cutoffDay)}T00:00:00Z` });
      return (
        await duck.all<{ t: string; value: number }>(
          `SELECT strftime("timestamp", '%Y-%m-%d') AS t, value FROM train_observations ORDER BY "timestamp"`,
        )
      ).map((r): [string, number] => [r.t, r.value]);
    };
    expect(await train(35)).toEqual([
      [d(10), 1],
      [d(20), 2],
      [d(30), 3],
    ]);
    expect(await train(36)).toEqual([
      [d(10), 1],
      [d(30), 3],
    ]);
    const s = await duck.one<{ n_obs: bigint; n_revisions: bigint }>(
      'SELECT n_obs, n_revisions FROM train_series',
    );
    expect([Number(s.n_obs), Number(s.n_revisions)]).toEqual([2, 1]);
    expect(await train(60)).toEqual([
      [d(10), 1],
      [d(20), 2.2],
      [d(40), 4],
      [d(50), 5],
    ]);
  });
});

describe('HistoryStore with withdrawals', () => {
  const store = () =>
    new HistoryStore(
      new Map([
        ['b', given.map(([t, a, value]) => ({ timestamp: us(t), available_at: us(a + 0.5), value }))],
      ]),
    );

  it('serves a withdrawn value before its withdrawal instant and not after it', () => {
    const h = store();
    const at = (n: number, lookback?: number) =>
      h.historyAt('b', us(n), lookback).map((r) => [(r.timestamp - us(0)) / 86_400_000_000, r.value]);
    expect(at(35)).toEqual([
      [10, 1],
      [20, 2],
      [30, 3],
    ]);
    expect(at(35.5)).toEqual([
      [10, 1],
      [30, 3],
    ]);
    // The lookback counts served timestamps: the withdrawn ones are skipped, not returned as gaps.
    expect(at(51, 2)).toEqual([
      [10, 1],
      [40, 4],
    ]);
    expect(at(57.5)).toEqual([
      [10, 1],
      [20, 2.2],
      [40, 4],
      [50, 5],
    ]);
    expect(
      h
        .atOrigin(us(40))
        .historyAt('b')
        .map((r) => r.value),
    ).toEqual([1, 3]);
  });
});
