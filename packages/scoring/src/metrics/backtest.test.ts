import { describe, expect, it } from 'vitest';
import { backtestStatistics } from './backtest-statistics.ts';
import { topkBacktest } from './topk-backtest.ts';
import { topkDropBacktest } from './topk-drop-backtest.ts';

describe('backtestStatistics (FinTSB eqs. 8–12)', () => {
  it('matches hand computation', () => {
    // R = [.1, −.2, .05], A = 3 (so 252/n becomes 3/3 = 1)
    // TotalReturn = 1.1·.8·1.05 − 1 = −.076 → ARR = .924^1 − 1 = −.076
    // mean = −.05/3; deviations (.116667, −.183333, .066667); Σ² = .0516667 → Var = .0258333 → AVol = √(3·Var)
    // NAV 1.1, .88, .924: peak 1.1, deepest trough .88 → MDD = −(1.1 − .88)/1.1 = −0.2
    // benchmark [.05, −.1, .05] → excess [.05, −.1, 0]: mean −.05/3, Σ² dev = .0116667 → std √(.0058333)
    const s = backtestStatistics([0.1, -0.2, 0.05], { periodsPerYear: 3, benchmark: [0.05, -0.1, 0.05] });
    const avol = Math.sqrt((3 * 0.0516666666666667) / 2);
    expect(s.totalReturn).toBeCloseTo(-0.076, 14);
    expect(s.arr).toBeCloseTo(-0.076, 14);
    expect(s.avol).toBeCloseTo(avol, 12);
    expect(s.mdd).toBeCloseTo(-0.2, 14);
    expect(s.asr).toBeCloseTo(-0.076 / avol, 12);
    expect(s.ir).toBeCloseTo(-0.05 / 3 / Math.sqrt(0.0116666666666667 / 2), 12);
  });
  it('counts a first-day loss as drawdown from the initial capital', () => {
    // NAV 1 → .9 → .945: MDD = −.1
    expect(backtestStatistics([-0.1, 0.05]).mdd).toBeCloseTo(-0.1, 14);
    expect(backtestStatistics([0.01, 0.02]).ir).toBeNaN();
  });
  it('annualises with 252 by default', () => {
    // TotalReturn over 126 days = 10% → ARR = 1.1^(252/126) − 1 = .21
    const daily = new Array(126).fill(1.1 ** (1 / 126) - 1);
    expect(backtestStatistics(daily).arr).toBeCloseTo(0.21, 12);
  });
});

// 5 assets, m = 2, n = 1, fee .001.
// day 0 scores [5,4,3,2,1]: both strategies buy {0,1}; turnover = 2 × .5 = 1
// day 1 scores [1,2,5,4,3]: TopK → {2,3}: sells 0,1 and buys 2,3, turnover 4 × .5 = 2.
//   TopK-Drop: L = [1 (2), 0 (1)]; C = best n + m − |L| = 1 non-held = [2]; L ∪ C by score = [2, 1, 0];
//   bottom n = {0} → sell 0, buy 2 → {2,1}; turnover = .5 + .5 = 1 (|P1 ∩ P0| = 1 ≥ m − n)
// day 2 same scores: TopK keeps {2,3} (turnover 0). TopK-Drop: L = [2, 1], C = [3]; [2, 3, 1] → sell 1, buy 3
// returns: day 0 [.01,.03,0,0,0]; day 1 [0,.02,.04,.06,0]; day 2 [0,0,.01,.03,0]
// TopK:      .02 − .001 = .019;  (.04+.06)/2 − .002 = .048;  (.01+.03)/2 − 0 = .02
// TopK-Drop: .019;               (.02+.04)/2 − .001 = .029;  (.01+.03)/2 − .001 = .019
const scores = [
  [5, 4, 3, 2, 1],
  [1, 2, 5, 4, 3],
  [1, 2, 5, 4, 3],
];
const returns = [
  [0.01, 0.03, 0, 0, 0],
  [0, 0.02, 0.04, 0.06, 0],
  [0, 0, 0.01, 0.03, 0],
];

describe('topkBacktest (FinTSB §5.2)', () => {
  it('holds the daily top m and charges the fee on turnover', () => {
    const r = topkBacktest(scores, returns, { k: 2 });
    expect(r.holdings).toEqual([
      [0, 1],
      [2, 3],
      [2, 3],
    ]);
    expect([...r.turnover]).toEqual([1, 2, 0]);
    expect(r.dailyReturns[0]).toBeCloseTo(0.019, 15);
    expect(r.dailyReturns[1]).toBeCloseTo(0.048, 15);
    expect(r.dailyReturns[2]).toBeCloseTo(0.02, 15);
    expect(r.totalReturn).toBeCloseTo(1.019 * 1.048 * 1.02 - 1, 14);
  });
  it('passes the benchmark through to IR', () => {
    // R_b = [.01, .02, .03] → excess = [.009, .028, −.01]: mean .009, deviations (0, .019, −.019),
    // sample var = 2·.019²/2 = .019² → IR = .009/.019
    const r = topkBacktest(scores, returns, { k: 2, benchmark: [0.01, 0.02, 0.03] });
    expect(r.ir).toBeCloseTo(0.009 / 0.019, 12);
  });
});

describe('topkDropBacktest (FinTSB §5.2)', () => {
  it('replaces at most n holdings per day', () => {
    const r = topkDropBacktest(scores, returns, { k: 2, drop: 1 });
    expect(r.holdings).toEqual([
      [0, 1],
      [2, 1],
      [2, 3],
    ]);
    expect([...r.turnover]).toEqual([1, 1, 1]);
    expect(r.dailyReturns[1]).toBeCloseTo(0.029, 15);
    expect(r.dailyReturns[2]).toBeCloseTo(0.019, 15);
  });
  it('keeps holdings when the best candidate ranks below them', () => {
    // day 1 scores [5,4,3,2,1] again: L = [0, 1], C = [2]; [0, 1, 2] → bottom n = {2} is not held → no trade
    const r = topkDropBacktest([scores[0], scores[0]], [returns[0], returns[0]], { k: 2, drop: 1 });
    expect(r.holdings[1]).toEqual([0, 1]);
    expect(r.turnover[1]).toBe(0);
  });
  it('force-sells a holding that is not tradable', () => {
    // day 1: asset 0 has no score → forced out; L = [1]; C = top (1 + 2 − 1) = 2 non-held = [2 (3), 3 (2)];
    // L ∪ C by score = [1, 2, 3] → bottom 1 = {3}, not held → no extra sale; buy C[: 2 − 1] = [2] → {2, 1}
    const r = topkDropBacktest([scores[0], [Number.NaN, 4, 3, 2, 1]], [returns[0], [0, 0.01, 0.01, 0, 0]], {
      k: 2,
      drop: 1,
    });
    expect(r.holdings[1]).toEqual([1, 2]);
    expect(r.turnover[1]).toBe(1);
  });
});
