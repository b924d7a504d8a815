import { ArimaBaseline, GarchBaseline, quantileColumnName } from '@asof/baselines';
import { describe, expect, it } from 'vitest';
import { arimaForecaster } from './arima-forecaster.ts';
import { garchForecaster } from './garch-forecaster.ts';
import { HistoryStore } from './history-store.ts';
import { LookaheadError } from './lookahead-error.ts';
import type { ForecastTask } from './run-forecaster.ts';
import { type PathForecaster, runPathForecaster } from './run-path-forecaster.ts';

// A seeded positive random walk 'p' (each value public at its timestamp) and a copy 'late' published one
// step after its timestamp; 'poisoned' equals 'p' up to step 300 and is wildly different after it.
function walk(n: number, seed: number): number[] {
  let s = seed;
  const out = [100];
  for (let i = 1; i < n; i++) {
    s = (s * 16807) % 2147483647;
    out.push(out[i - 1] * Math.exp(0.01 * (s / 2147483647 - 0.5) * 3.46));
  }
  return out;
}
const values = walk(400, 42);
const rows = (v: number[], lag = 0) =>
  v.map((value, i) => ({ timestamp: i + 1, available_at: i + 1 + lag, value }));
const store = () =>
  new HistoryStore(
    new Map([
      ['p', rows(values)],
      ['late', rows(values, 1)],
      ['poisoned', rows(values.map((v, i) => (i >= 300 ? v * 1000 : v)))],
    ]),
  );
const tasks = (series: string, origins: number[]): ForecastTask[] =>
  origins.map((origin) => ({ series_id: series, origin, horizon_steps: 5, lookback_steps: 250 }));

describe('ARIMA and GARCH forecasters through the look-ahead guard', () => {
  it("equal @asof/baselines' baselines on the same window (what the scorer computes from history_tail)", () => {
    const origins = [260, 270, 280, 290, 300];
    const viaGuard = runPathForecaster(store(), tasks('p', origins), arimaForecaster({ refitEvery: 2 }));
    const direct = new ArimaBaseline({ refitEvery: 2 });
    const K = direct.levels.length;
    origins.forEach((o, i) => {
      const window = values.slice(o - 250, o);
      const path = direct.pathAt('p', o, window, null, 5)!;
      for (let k = 0; k < 5; k++) {
        const row = viaGuard[i * 5 + k];
        expect(row.origin).toBe(o);
        expect(row.value).toBe(path.point[k]);
        expect(row.quantiles[quantileColumnName(0.05)]).toBe(path.quantiles[k * K]);
        expect(Object.keys(row.quantiles).length).toBe(19);
      }
    });
    const g = runPathForecaster(store(), tasks('p', origins), garchForecaster());
    const gd = new GarchBaseline();
    origins.forEach((o, i) => {
      const path = gd.pathAt('p', o, values.slice(o - 250, o), null, 5)!;
      expect(g[i * 5].value).toBe(values[o - 1]);
      expect(g[i * 5 + 4].quantiles['q0.95']).toBe(path.quantiles[4 * 19 + 18]);
    });
  });

  it('count the publication lag: a series released a step late forecasts k + 1 steps from its last value', () => {
    const late = runPathForecaster(store(), tasks('late', [301]), arimaForecaster()).map((r) => r.value);
    const onTime = new ArimaBaseline().pathAt('x', 300, values.slice(50, 300), null, 6)!;
    late.forEach((v, k) => {
      expect(v).toBeCloseTo(onTime.point[k + 1], 9);
    });
  });

  it('forecasts at or before an origin do not change when the data after it are poisoned', () => {
    const origins = [280, 290, 300];
    for (const make of [() => arimaForecaster({ refitEvery: 1 }), () => garchForecaster({ refitEvery: 1 })]) {
      const clean = runPathForecaster(store(), tasks('p', origins), make());
      const poisoned = runPathForecaster(store(), tasks('poisoned', origins), make());
      expect(poisoned.map((r) => [r.value, r.quantiles])).toEqual(clean.map((r) => [r.value, r.quantiles]));
    }
  });

  it('a forecaster that reads past its origin aborts the run', () => {
    const cheat: PathForecaster = (task, history) => {
      history.historyAt(task.series_id, task.origin + 1);
      return null;
    };
    expect(() => runPathForecaster(store(), tasks('p', [300]), cheat)).toThrow(LookaheadError);
  });
});
