import { describe, expect, it } from 'vitest';
import { HistoryStore } from './history-store.ts';
import { LookaheadError } from './lookahead-error.ts';
import { type Forecaster, randomWalkForecaster, runForecaster } from './run-forecaster.ts';

// timestamps 10, 20, 30; the value for 20 is revised at 35; 30 is published at 32.
const store = () =>
  new HistoryStore(
    new Map([
      [
        's',
        [
          { timestamp: 20, available_at: 35, value: 2.5 },
          { timestamp: 10, available_at: 10, value: 1 },
          { timestamp: 20, available_at: 21, value: 2 },
          { timestamp: 30, available_at: 32, value: 3 },
        ],
      ],
    ]),
  );

describe('HistoryStore', () => {
  it('serves the as-of view: latest public vintage per timestamp, nothing published later', () => {
    const h = store();
    expect(h.historyAt('s', 25).map((r) => r.value)).toEqual([1, 2]);
    expect(h.historyAt('s', 31).map((r) => r.value)).toEqual([1, 2]);
    expect(h.historyAt('s', 34).map((r) => r.value)).toEqual([1, 2, 3]);
    expect(h.historyAt('s', 40).map((r) => r.value)).toEqual([1, 2.5, 3]);
    expect(h.historyAt('s', 40, 1).map((r) => r.value)).toEqual([3]);
    expect(() => h.historyAt('nope', 40)).toThrow(/nope is not loaded/);
  });

  it('throws LookaheadError for a request beyond the origin and counts guard checks', () => {
    const h = store();
    const view = h.atOrigin(31);
    expect(view.historyAt('s').map((r) => r.value)).toEqual([1, 2]);
    expect(view.historyAt('s', 25).map((r) => r.value)).toEqual([1, 2]);
    expect(() => view.historyAt('s', 32)).toThrow(LookaheadError);
    expect(h.guard.requests).toBe(3);
    expect(h.guard.rows).toBe(4);
  });

  it('runs the random walk, and a cheating forecaster aborts the run (the runner does not catch)', () => {
    const h = store();
    const tasks = [
      { series_id: 's', origin: 25, horizon_steps: 2 },
      { series_id: 's', origin: 33, horizon_steps: 2 },
    ];
    expect(runForecaster(h, tasks, randomWalkForecaster).map((f) => [f.origin, f.step, f.value])).toEqual([
      [25, 1, 2],
      [25, 2, 2],
      [33, 1, 3],
      [33, 2, 3],
    ]);
    const cheat: Forecaster = (task, view) => [
      view.historyAt(task.series_id, task.origin + 10).at(-1)?.value ?? 0,
    ];
    expect(() => runForecaster(h, tasks, cheat)).toThrow(LookaheadError);
  });
});
