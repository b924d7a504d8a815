import { describe, expect, it } from 'vitest';
import { driftForecaster } from './drift-forecaster.ts';
import { HistoryStore, type StoredHistoryRow } from './history-store.ts';
import { type ForecastTask, randomWalkForecaster, runForecaster } from './run-forecaster.ts';
import { seasonalNaiveForecaster } from './seasonal-naive-forecaster.ts';

// Series released after their period, as monthly/quarterly macro and fundamentals are: at the month-end
// (quarter-end) origin the origin's own period is not public yet. Values name their period (201901 is
// January 2019, 20193 is 2019Q3), so each expectation reads as "which period's value, as known then".
const DAY = 86_400_000_000;
const monthEnd = (y: number, m: number) => Date.UTC(y, m, 0, 23, 59, 59) * 1000;
const M = (y: number, m: number) => y * 100 + m;
const Q = (y: number, q: number) => y * 10 + q;

/** Monthly 2017-01 … 2020-12, each released on the 15th of the next month (a one-month lag). */
function monthly(extra: StoredHistoryRow[] = []): StoredHistoryRow[] {
  const rows: StoredHistoryRow[] = [];
  for (let y = 2017; y <= 2020; y++)
    for (let m = 1; m <= 12; m++)
      rows.push({ timestamp: monthEnd(y, m), available_at: monthEnd(y, m) + 15 * DAY, value: M(y, m) });
  return [...rows, ...extra];
}

/** Quarterly from `fromYear` Q1 to 2020Q4, each released 40 days after the quarter end. */
function quarterly(fromYear: number, value: (y: number, q: number, step: number) => number) {
  const rows: StoredHistoryRow[] = [];
  let step = 0;
  for (let y = fromYear; y <= 2020; y++)
    for (let q = 1; q <= 4; q++) {
      step++;
      const t = monthEnd(y, 3 * q);
      rows.push({ timestamp: t, available_at: t + 40 * DAY, value: value(y, q, step) });
    }
  return rows;
}

const DEC_2019 = monthEnd(2019, 12);
const task = (series_id: string, horizon_steps: number, lookback_steps: number): ForecastTask => ({
  series_id,
  origin: DEC_2019,
  horizon_steps,
  lookback_steps,
});
const run = (store: HistoryStore, t: ForecastTask, m: number) =>
  runForecaster(
    store,
    [t],
    seasonalNaiveForecaster(() => m),
  ).map((r) => r.value);

describe('seasonal naive on the grid from the origin, whatever the publication lag', () => {
  it('monthly, one-month lag: January 2020 is January 2019; December 2020 falls back to December 2018', () => {
    // Revisions: January 2019 revised in June 2019 (known at the origin), February 2019 in February 2020
    // (not known at the origin).
    const store = new HistoryStore(
      new Map([
        [
          'm',
          monthly([
            { timestamp: monthEnd(2019, 1), available_at: monthEnd(2019, 6), value: 201901.5 },
            { timestamp: monthEnd(2019, 2), available_at: monthEnd(2020, 2), value: 999999 },
          ]),
        ],
      ]),
    );
    // At the December 2019 origin, November 2019 is the last public month (released 15 December).
    expect(run(store, task('m', 12, 12), 12)).toEqual([
      201901.5,
      M(2019, 2),
      M(2019, 3),
      M(2019, 4),
      M(2019, 5),
      M(2019, 6),
      M(2019, 7),
      M(2019, 8),
      M(2019, 9),
      M(2019, 10),
      M(2019, 11),
      // Step o itself (December 2019) is not public at the origin: the same month one season earlier.
      M(2018, 12),
    ]);
    // The random walk's y_o is the last value public at the origin: November 2019.
    expect(runForecaster(store, [task('m', 2, 12)], randomWalkForecaster).map((r) => r.value)).toEqual([
      M(2019, 11),
      M(2019, 11),
    ]);
  });

  it('monthly: a withdrawn seasonal step falls back two seasons, or to the random walk outside the inputs', () => {
    // March 2019 is withdrawn in June 2019 (value null): at the origin it is not public.
    const store = new HistoryStore(
      new Map([
        ['m', monthly([{ timestamp: monthEnd(2019, 3), available_at: monthEnd(2019, 6), value: null }])],
      ]),
    );
    // 24 public months in the window (November 2017 … November 2019 without March 2019): March 2018.
    expect(run(store, task('m', 4, 24), 12)).toEqual([M(2019, 1), M(2019, 2), M(2018, 3), M(2019, 4)]);
    // A 12-month window (November 2018 … November 2019 without March 2019) holds no March: y_o.
    expect(run(store, task('m', 4, 12), 12)).toEqual([M(2019, 1), M(2019, 2), M(2019, 11), M(2019, 4)]);
  });

  it('quarterly, 40-day lag: 2020Q1…Q3 from 2019Q1…Q3, 2020Q4 from 2018Q4; a short history ends in y_o', () => {
    const store = new HistoryStore(
      new Map([
        ['q', quarterly(2016, Q)],
        ['short', quarterly(2019, Q)],
      ]),
    );
    // 2019Q3 (30 September) was released on 9 November; 2019Q4 is released on 9 February 2020.
    expect(run(store, task('q', 4, 4), 4)).toEqual([Q(2019, 1), Q(2019, 2), Q(2019, 3), Q(2018, 4)]);
    // Only 2019Q1…Q3 exist: no fourth quarter is public, so 2020Q4 is the random walk (2019Q3).
    expect(run(store, task('short', 4, 4), 4)).toEqual([Q(2019, 1), Q(2019, 2), Q(2019, 3), Q(2019, 3)]);
    // Eight steps: the second year repeats the first (the same public steps, one more season back).
    expect(run(store, task('q', 8, 4), 4)).toEqual([
      Q(2019, 1),
      Q(2019, 2),
      Q(2019, 3),
      Q(2018, 4),
      Q(2019, 1),
      Q(2019, 2),
      Q(2019, 3),
      Q(2018, 4),
    ]);
  });

  it('counts from the split’s grid: a store that misses unserved steps must be given their numbers', () => {
    // What a split serves at its last origin (December 2019): nothing of December 2019, which is released
    // after it. Numbering its own rows, the store would take November 2019 as the origin's step.
    const served = monthly().filter((r) => r.timestamp <= monthEnd(2019, 11));
    const own = new HistoryStore(new Map([['m', served]]));
    expect(run(own, task('m', 12, 12), 12)[0]).toBe(M(2018, 12));
    // With the split's step numbers (step_index of the inputs, origin_index of the origin) it is right.
    const grid = monthly().map((r, i) => ({ timestamp: r.timestamp, step: i + 1 }));
    const given = new HistoryStore(new Map([['m', served]]), new Map([['m', grid]]));
    expect(run(given, task('m', 12, 12), 12)).toEqual(
      run(new HistoryStore(new Map([['m', monthly()]])), task('m', 12, 12), 12),
    );
    expect(run(given, task('m', 12, 12), 12)[0]).toBe(M(2019, 1));
    // origin_index on the task wins over the store's grid: the split's own origin step.
    const shifted = { ...task('m', 12, 12), origin_index: 36 };
    expect(run(own, shifted, 12)[0]).toBe(M(2019, 1));
  });
});

describe('drift counts the lag: target o+k is k + u steps after the last public value', () => {
  it('quarterly, 40-day lag, in levels and in log levels', () => {
    const store = new HistoryStore(
      new Map([
        // y = 2·step − 100 (2016Q1 = step 1): negative, so the level slope.
        ['lin', quarterly(2016, (_y, _q, step) => 2 * step - 100)],
        // y = 100·1.1^(step − 1): positive, so log levels.
        ['geo', quarterly(2016, (_y, _q, step) => 100 * 1.1 ** (step - 1))],
      ]),
    );
    // At 2019Q4 (step 16) the public history is steps 1…15: y_1 = −98, y_o = −70, n = 15, slope 2, and
    // y_o's step is u = 1 before the origin's: ŷ_{o+k} = −70 + 2(k + 1), the line's own steps 17…20.
    const lin = runForecaster(store, [task('lin', 4, 4)], driftForecaster).map((r) => r.value);
    expect(lin).toEqual([-66, -64, -62, -60]);
    // g = ln 1.1 per step: ŷ_{o+k} = y_o·1.1^(k+1) = 100·1.1^(15+k).
    const geo = runForecaster(store, [task('geo', 4, 4)], driftForecaster).map((r) => r.value);
    expect(geo).toHaveLength(4);
    for (let k = 1; k <= 4; k++) expect(geo[k - 1]).toBeCloseTo(100 * 1.1 ** (15 + k), 9);
  });
});
