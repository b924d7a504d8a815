import { describe, expect, it } from 'vitest';
import { backtestStatistics } from './backtest-statistics.ts';
import { fintsbCodeStatistics, icirDdof0, topkCode, topkDropCode } from './fintsb-code-conventions.ts';
import { sampleStd } from './sample-std.ts';

// Values by hand from the formulas FinTSB's train.py and basktesting.py compute (not from its code).
const scores = [
  [3, 1, 2, 0],
  [0, 3, 1, 2],
  [1, 2, 3, 0],
];
const returns = [
  [0.1, -0.05, 0.02, 0.03],
  [0.01, 0.04, -0.02, 0.05],
  [-0.03, 0.02, 0.06, 0.01],
];
const keep = 0.99 ** 2; // (1 − c)², c = 1%

describe("FinTSB's code conventions (--fintsb-compat code)", () => {
  it('ICIR: mean / std with ddof 0', () => {
    // ICs .5, −.5, 1: mean 1/3; Σ(x − x̄)² = (1/36 + 25/36 + 16/36) = 42/36 → ddof 0: /3, ddof 1: /2
    expect(icirDdof0([0.5, -0.5, 1])).toBeCloseTo(1 / 3 / Math.sqrt(42 / 36 / 3), 14);
    expect(icirDdof0([0.5, -0.5, 1])).not.toBeCloseTo(1 / 3 / sampleStd([0.5, -0.5, 1]), 3);
  });

  it('TopK: the mean return of the top k each day times (1 − c)²', () => {
    // day 0: names 0, 2 → (.1 + .02)/2; day 1: 1, 3 → (.04 + .05)/2; day 2: 2, 1 → (.06 + .02)/2
    const r = topkCode(scores, returns, { k: 2, fee: 0.01 });
    expect(r[0]).toBeCloseTo(0.06 * keep, 15);
    expect(r[1]).toBeCloseTo(0.045 * keep, 15);
    expect(r[2]).toBeCloseTo(0.04 * keep, 15);
  });

  it('TopK-Drop: keep the k − n best of yesterday, buy the n best others, (1 − c)² on the new ones', () => {
    // day 0: top 2 = {0, 2}: (.1 + .02)/2·(1 − c)²
    // day 1: keep the best 1 of {0, 2} by today's score (2, score 1): −.02; buy the best of {0, 1, 3}: 1 (.04)
    //        R = (−.02·1 + .04·1·(1 − c)²)/2
    // day 2: keep the best of {2, 1} (2, score 3): .06; buy the best of {0, 1, 3}: 1 (score 2): .02
    //        R = (.06 + .02·(1 − c)²)/2
    const r = topkDropCode(scores, returns, { k: 2, drop: 1, fee: 0.01 });
    expect(r[0]).toBeCloseTo(0.06 * keep, 15);
    expect(r[1]).toBeCloseTo((-0.02 + 0.04 * keep) / 2, 15);
    expect(r[2]).toBeCloseTo((0.06 + 0.02 * keep) / 2, 15);
  });

  it('statistics: ARR, AVol, ASR as the paper, MDD from NAV₁, IR as printed (the IC)', () => {
    const daily = Float64Array.from([-0.1, 0.05, -0.02]);
    const s = fintsbCodeStatistics(daily, { periodsPerYear: 252, ic: 0.0123 });
    // NAV₁ .9, NAV₂ .945, NAV₃ .9261: running max .9, .945, .945 → MDD (.9261 − .945)/.945 = −.02
    expect(s.mdd).toBeCloseTo(-0.02, 14);
    // The paper's text starts at NAV₀ = 1: a first-day loss of 10% is the drawdown.
    expect(backtestStatistics(daily, { periodsPerYear: 252 }).mdd).toBeCloseTo(-0.1, 14);
    const total = 0.9 * 1.05 * 0.98;
    expect(s.arr).toBeCloseTo(total ** (252 / 3) - 1, 12);
    const sd = sampleStd(daily);
    expect(s.avol).toBeCloseTo(sd * Math.sqrt(252), 14);
    expect(s.asr).toBeCloseTo(s.arr / s.avol, 12);
    expect(s.ir).toBe(0.0123);
    expect(s.irComputed).toBeCloseTo((-0.07 / 3 / sd) * Math.sqrt(252), 12);
  });

  it('an empty group adds 0 where the code would give NaN (k − n = 0)', () => {
    const r = topkDropCode(scores, returns, { k: 1, drop: 1, fee: 0 });
    // day 1: no name kept; the best of all: 1 (.04) → (0·0 + .04·1)/1
    expect(r[1]).toBeCloseTo(0.04, 15);
    expect(Number.isFinite(r[2])).toBe(true);
  });
});
