import { describe, expect, it } from 'vitest';
import { driftForecaster } from './drift-forecaster.ts';
import { HistoryStore } from './history-store.ts';
import { runForecaster } from './run-forecaster.ts';
import { seasonalNaiveForecaster } from './seasonal-naive-forecaster.ts';

// s: values 0, 2, 4, …, 18 at timestamps 1…10 (each public at its timestamp); t: released late (ts + 5).
const store = () =>
  new HistoryStore(
    new Map([
      ['s', Array.from({ length: 10 }, (_, i) => ({ timestamp: i + 1, available_at: i + 1, value: 2 * i }))],
      ['t', Array.from({ length: 10 }, (_, i) => ({ timestamp: i + 1, available_at: i + 6, value: i }))],
    ]),
  );

describe('baseline forecasters through historyAt', () => {
  it('drift extends the mean change over the whole history public at the origin', () => {
    const rows = runForecaster(
      store(),
      [{ series_id: 's', origin: 4, horizon_steps: 3, lookback_steps: 2 }],
      driftForecaster,
    );
    // history at 4: 0, 2, 4, 6 → y_1 = 0 is not positive: level slope 2 (the lookback does not cut the
    // drift's history).
    expect(rows.map((r) => r.value)).toEqual([8, 10, 12]);
    // t at 8: only timestamps 1…3 are public (values 0, 1, 2) → slope 1 from y_o = 2, whose step (3) is
    // u = 5 steps before the origin's (8): targets 9 and 10 are 6 and 7 steps after y_o.
    const late = runForecaster(store(), [{ series_id: 't', origin: 8, horizon_steps: 2 }], driftForecaster);
    expect(late.map((r) => r.value)).toEqual([8, 9]);
  });

  it('drift is in log levels when the first and last public values are positive', () => {
    // p: 1, 2, 4, 8, … (doubling) → at origin 4 the history 1, 2, 4, 8 gives g = ln 2 per step.
    const doubling = new HistoryStore(
      new Map([
        [
          'p',
          Array.from({ length: 10 }, (_, i) => ({ timestamp: i + 1, available_at: i + 1, value: 2 ** i })),
        ],
      ]),
    );
    const rows = runForecaster(doubling, [{ series_id: 'p', origin: 4, horizon_steps: 3 }], driftForecaster);
    expect(rows.map((r) => Math.round(r.value * 1e9) / 1e9)).toEqual([16, 32, 64]);
  });

  it('seasonal naive repeats the last season of the input window, else the random walk', () => {
    const f = seasonalNaiveForecaster(() => 3);
    const rows = runForecaster(
      store(),
      [{ series_id: 's', origin: 6, horizon_steps: 4, lookback_steps: 5 }],
      f,
    );
    expect(rows.map((r) => r.value)).toEqual([6, 8, 10, 6]);
    // A 2-step window (timestamps 5, 6 → 8, 10): step o+1−3 = 4 is not in it → the random walk 10; step
    // o+2−3 = 5 is → 8.
    const short = runForecaster(
      store(),
      [{ series_id: 's', origin: 6, horizon_steps: 2, lookback_steps: 2 }],
      f,
    );
    expect(short.map((r) => r.value)).toEqual([10, 8]);
  });

  it('returns nothing when nothing is public at the origin', () => {
    expect(
      runForecaster(store(), [{ series_id: 't', origin: 3, horizon_steps: 2 }], driftForecaster),
    ).toEqual([]);
  });
});
