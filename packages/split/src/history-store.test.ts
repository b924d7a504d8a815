import { describe, expect, it } from 'vitest';
import { HistoryStore, type StoredHistoryRow } from './history-store.ts';
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

// The as-of view by definition: per timestamp <= t the last row (in (timestamp, available_at) order) public
// at t, withdrawals left out, then the last `lookback` of those.
function asOfByDefinition(rows: readonly StoredHistoryRow[], t: number, lookback?: number) {
  const sorted = [...rows].sort((a, b) => a.timestamp - b.timestamp || a.available_at - b.available_at);
  const latest = new Map<number, StoredHistoryRow>();
  for (const r of sorted) if (r.timestamp <= t && r.available_at <= t) latest.set(r.timestamp, r);
  const out = [...latest.values()].filter((r) => r.value !== null);
  return lookback === undefined ? out : out.slice(Math.max(0, out.length - lookback));
}

describe('HistoryStore.historyAt', () => {
  it('serves the as-of view by definition for every as-of instant and window, revisions and withdrawals included', () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let checked = 0;
    let shortened = 0;
    const mismatches: unknown[] = [];
    for (let trial = 0; trial < 30; trial++) {
      const rows: StoredHistoryRow[] = [];
      for (let t = 1; t <= 40; t++) {
        if (rand() < 0.1) continue;
        const av = t + Math.floor(rand() * 6);
        rows.push({ timestamp: t, available_at: av, value: rand() });
        // Same instant twice: the later row in the sorted order wins, as for a full scan.
        if (rand() < 0.1) rows.push({ timestamp: t, available_at: av, value: rand() });
        if (rand() < 0.2)
          rows.push({ timestamp: t, available_at: av + 1 + Math.floor(rand() * 8), value: null });
        if (rand() < 0.2)
          rows.push({ timestamp: t, available_at: av + 2 + Math.floor(rand() * 8), value: rand() });
      }
      const h = new HistoryStore(new Map([['s', rows]]));
      for (let t = 0; t <= 52; t++) {
        for (const lookback of [undefined, 0, 1, 3, 12, 100]) {
          const want = asOfByDefinition(rows, t, lookback);
          const got = h.historyAt('s', t, lookback);
          // The stored rows themselves, in time order.
          if (got.length !== want.length || got.some((r, i) => r !== want[i])) {
            mismatches.push({ trial, t, lookback, got: got.length, want: want.length });
          }
          checked += want.length;
          if (lookback !== undefined && asOfByDefinition(rows, t).length > lookback) shortened++;
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(checked).toBeGreaterThan(10_000);
    expect(shortened).toBeGreaterThan(1_000);
  });
});
