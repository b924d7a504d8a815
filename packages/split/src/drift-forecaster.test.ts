import { usSessionClose, usTradingDays } from '@asof/calendar';
import { describe, expect, it } from 'vitest';
import { driftForecaster } from './drift-forecaster.ts';
import { HistoryStore, type StoredHistoryRow } from './history-store.ts';
import { runForecaster } from './run-forecaster.ts';

// Drift on a served history with the README split's hole (asof split --model-cutoff 2021-12-31
// --run-date 2025-12-31 on the default universe serves nothing of 2020-01…2020-12 for monthly and quarterly
// series, nor of 2020-01-03…2021-01-13 for daily ones): the slope runs from the first to the last observation
// over their distance on the series' grid, as rwf does on the unbroken as-of history, not over the number of
// rows served (audit scoring-2026-12, mismatch 2). The store holds what the split serves, with the series'
// grid as the split numbers it (every period the build holds: months, quarters, US trading sessions).

const DAY = 86_400_000_000;
const monthEnd = (y: number, m: number) => Date.UTC(y, m, 0, 23, 59, 59) * 1000;

interface Period {
  timestamp: number;
  value: number;
}

/** A store of the periods served (available at their own timestamp) on the grid of all periods. */
function storeOf(periods: readonly Period[], served: (p: Period) => boolean): HistoryStore {
  const rows: StoredHistoryRow[] = periods
    .filter(served)
    .map((p) => ({ timestamp: p.timestamp, available_at: p.timestamp, value: p.value }));
  const grid = periods.map((p, i) => ({ timestamp: p.timestamp, step: i + 1 }));
  return new HistoryStore(new Map([['s', rows]]), new Map([['s', grid]]));
}

function drift(store: HistoryStore, origin: number, horizon: number): number[] {
  return runForecaster(store, [{ series_id: 's', origin, horizon_steps: horizon }], driftForecaster).map(
    (r) => r.value,
  );
}

describe('drift on the grid, with the README split’s hole', () => {
  it('monthly: 2010-01 … 2024-01, nothing served of 2020', () => {
    // y = 100·1.01^m, m = months since 2010-01. At the 2024-01 origin y_1 is 2010-01 (100) and y_o 2024-01
    // (100·1.01^168): 168 months apart, so g = ln 1.01 and ŷ_{o+k} = y_o·1.01^k. Served are 169 − 12 = 157
    // rows; (n − 1) = 156 would give g = (168/156)·ln 1.01, 7.7% too steep.
    const periods: Period[] = [];
    for (let m = 0; m <= 168; m++) periods.push({ timestamp: monthEnd(2010, m + 1), value: 100 * 1.01 ** m });
    const store = storeOf(
      periods,
      (p) => p.timestamp < monthEnd(2020, 1) || p.timestamp > monthEnd(2020, 12),
    );
    const origin = monthEnd(2024, 1);
    expect(store.historyAt('s', origin)).toHaveLength(157);
    const yo = 100 * 1.01 ** 168;
    const path = drift(store, origin, 3);
    for (let k = 1; k <= 3; k++) expect(path[k - 1] / (yo * 1.01 ** k) - 1).toBeCloseTo(0, 13);
    expect(path[0] / (yo * 1.01 ** (168 / 156)) - 1).not.toBeCloseTo(0, 6);
  });

  it('quarterly: 2010Q1 … 2024Q1, nothing served of 2020Q1…Q4, in levels for a series below zero', () => {
    // y = 3·q − 40, q = quarters since 2010Q1: y_1 = −40, y_o (2024Q1, q = 56) = 128, 56 quarters apart:
    // slope 168/56 = 3 a quarter, so ŷ_{o+k} = 128 + 3k. Served are 57 − 4 = 53 rows; (n − 1) = 52 gives
    // 168/52 = 3.23.
    const periods: Period[] = [];
    for (let q = 0; q <= 56; q++) periods.push({ timestamp: monthEnd(2010, 3 * (q + 1)), value: 3 * q - 40 });
    const store = storeOf(
      periods,
      (p) => p.timestamp < monthEnd(2020, 3) || p.timestamp > monthEnd(2020, 12),
    );
    const origin = monthEnd(2024, 3);
    expect(store.historyAt('s', origin)).toHaveLength(53);
    expect(drift(store, origin, 4)).toEqual([131, 134, 137, 140]);
  });

  it('business days: US trading sessions 2015-01-02 … 2024-01-02, nothing served of 2020-01-03…2021-01-13', () => {
    // The grid is the NYSE session calendar (@asof/calendar), not weekdays: 252 + 252 + 251 + 251 + 252 +
    // 253 + 252 + 251 + 250 sessions in 2015…2023 (weekdays less the exchange's holidays and closures),
    // and 2024-01-02: 2,265 sessions, so 2,264 steps from y_1 to y_o. y = 50·exp(0.0004·i) on session i,
    // so g = 0.0004, as rwf finds it on the unbroken history. The hole holds 252 sessions of 2020 (all but
    // 2020-01-02) and 8 of 2021 (01-04…01-13): 260; counting the 2,005 rows served would give
    // g = 0.0004·2264/2004, 13.0% too steep.
    const sessions = usTradingDays('2015-01-02', '2024-01-02');
    expect(sessions).toHaveLength(2265);
    const periods = sessions.map((d, i) => ({
      timestamp: usSessionClose(d).micros,
      value: 50 * Math.exp(0.0004 * i),
    }));
    const hole = (p: Period) =>
      p.timestamp >= usSessionClose('2020-01-03').micros &&
      p.timestamp <= usSessionClose('2021-01-13').micros;
    const store = storeOf(periods, (p) => !hole(p));
    expect(periods.filter(hole)).toHaveLength(260);
    const origin = usSessionClose('2024-01-02').micros;
    expect(store.historyAt('s', origin)).toHaveLength(2005);
    const yo = 50 * Math.exp(0.0004 * 2264);
    const path = drift(store, origin, 2);
    expect(path[0] / (yo * Math.exp(0.0004)) - 1).toBeCloseTo(0, 12);
    expect(path[1] / (yo * Math.exp(0.0008)) - 1).toBeCloseTo(0, 12);
  });

  it('a lagged series counts the lag on the grid; y_1 is the first row whose step the store holds', () => {
    // Monthly, each month released the next month: at the 2024-01 month-end origin y_o is 2023-12, one step
    // before the origin's (u = 1). The store's grid lacks the first two months (a training snapshot with a
    // hole is placed only at its ends): y_1 is 2010-03 (m = 2), 165 months before y_o.
    const periods: Period[] = [];
    for (let m = 0; m <= 168; m++) periods.push({ timestamp: monthEnd(2010, m + 1), value: 100 * 1.01 ** m });
    const rows: StoredHistoryRow[] = periods.map((p) => ({
      timestamp: p.timestamp,
      available_at: p.timestamp + 15 * DAY,
      value: p.value,
    }));
    const grid = periods.map((p, i) => ({ timestamp: p.timestamp, step: i + 1 })).slice(2);
    const store = new HistoryStore(new Map([['s', rows]]), new Map([['s', grid]]));
    const origin = monthEnd(2024, 1);
    const yo = 100 * 1.01 ** 167;
    const path = drift(store, origin, 2);
    // g = ln(y_o/y_1)/165 = ln 1.01; target o+k is k + 1 months after y_o.
    expect(path[0] / (yo * 1.01 ** 2) - 1).toBeCloseTo(0, 13);
    expect(path[1] / (yo * 1.01 ** 3) - 1).toBeCloseTo(0, 13);
  });
});
