import { describe, expect, it } from 'vitest';
import { portfolioMetrics } from './portfolio-metrics.ts';

// 3 assets, default top 10% → max(1, ceil(0.3)) = 1 asset held; h = 2 steps, A_h = 12.
// t0 pred [.1,.3,.2] → asset 1, R = .10     t1 pred [.5,.1,.2] → asset 0, R = −.05
// t2 pred [.1,.2,.3] → asset 2, R = −.10    t3 pred [.3,.2,.1] → asset 0, R = .20
// t4 pred [.2,.1,NaN] → asset 2 not in S_4 → asset 0, R = .05
// offset 0: R = [.10, −.10, .05], K = 3; offset 1: R = [−.05, .20], K = 2
const predicted = [
  [0.1, 0.3, 0.2],
  [0.5, 0.1, 0.2],
  [0.1, 0.2, 0.3],
  [0.3, 0.2, 0.1],
  [0.2, 0.1, Number.NaN],
];
const realized = [
  [0.05, 0.1, -0.02],
  [-0.05, 0.2, 0.1],
  [0.3, 0.1, -0.1],
  [0.2, 0, 0],
  [0.05, 0.3, 0.9],
];

describe('portfolioMetrics (FinVerse §3.2.3, eqs. 11–16)', () => {
  const res = portfolioMetrics(predicted, realized, { holdingSteps: 2, periodsPerYear: 12 });
  it('builds each offset path from the top-ranked asset', () => {
    expect(res.offsets.map((o) => o.periods)).toEqual([3, 2]);
    expect([...res.offsets[0].returns]).toEqual([0.1, -0.1, 0.05]);
    expect([...res.offsets[1].returns]).toEqual([-0.05, 0.2]);
  });
  it('computes eq. 15/16 per offset', () => {
    const [s0, s1] = res.offsets;
    // offset 0: NAV 1.1, 0.99, 1.0395 → AR = 1.0395^(12/3) − 1
    expect(s0.annualReturn).toBeCloseTo(1.0395 ** 4 - 1, 12);
    // mean = .05/3; deviations (.08333, −.11667, .03333); Σ² = .0216667 → sample var .0108333
    const std0 = Math.sqrt(0.0216666666666667 / 2);
    expect(s0.annualVolatility).toBeCloseTo(std0 * Math.sqrt(12), 12);
    expect(s0.sharpe).toBeCloseTo((0.05 / 3 / std0) * Math.sqrt(12), 12);
    // running max 1.1 → worst NAV/peak − 1 = .99/1.1 − 1 = −0.1
    expect(s0.maxDrawdown).toBeCloseTo(-0.1, 12);
    // offset 1: NAV .95, 1.14 → AR = 1.14^(12/2) − 1; R = (−.05, .20): mean .075, sample std = .25/√2
    expect(s1.annualReturn).toBeCloseTo(1.14 ** 6 - 1, 12);
    expect(s1.annualVolatility).toBeCloseTo((0.25 / Math.SQRT2) * Math.sqrt(12), 12);
    expect(s1.sharpe).toBeCloseTo((0.075 / (0.25 / Math.SQRT2)) * Math.sqrt(12), 12);
    // the max in eq. 16 runs over ℓ ≥ 1, so the first-period loss (NAV_1 = .95) is not a drawdown → 0
    expect(s1.maxDrawdown).toBe(0);
  });
  it('reports the average over offsets (eq. 13)', () => {
    expect(res.annualReturn).toBeCloseTo((1.0395 ** 4 - 1 + 1.14 ** 6 - 1) / 2, 12);
    expect(res.maxDrawdown).toBeCloseTo(-0.05, 12);
    expect(res.annualVolatility).toBeCloseTo(
      ((Math.sqrt(0.0216666666666667 / 2) + 0.25 / Math.SQRT2) * Math.sqrt(12)) / 2,
      12,
    );
  });
  it('holds ceil(fraction · |S_o|) assets', () => {
    // topFraction .5 of 3 → 2 assets: t0 holds assets 1 (.3) and 2 (.2): R = (.1 − .02)/2 = .04
    const r = portfolioMetrics(predicted, realized, {
      holdingSteps: 1,
      periodsPerYear: 12,
      topFraction: 0.5,
    });
    expect(r.offsets[0].returns[0]).toBeCloseTo(0.04, 15);
  });
  it('validates options', () => {
    expect(() => portfolioMetrics(predicted, realized, { holdingSteps: 0, periodsPerYear: 12 })).toThrow(
      /holdingSteps is 0/,
    );
  });
});
