import { describe, expect, it } from 'vitest';
import { averageRanks } from './average-ranks.ts';
import { fintsbSignalMetrics } from './fintsb-signal-metrics.ts';
import { informationCoefficient, meanInformationCoefficient } from './information-coefficient.ts';
import { pearsonCorrelation } from './pearson-correlation.ts';
import { spearmanCorrelation } from './spearman-correlation.ts';

describe('averageRanks', () => {
  it('gives ties the mean of the positions they span', () => {
    expect([...averageRanks([10, 20, 20, 30])]).toEqual([1, 2.5, 2.5, 4]);
    expect([...averageRanks([3, 1, 2])]).toEqual([3, 1, 2]);
    expect([...averageRanks([7, 7, 7])]).toEqual([2, 2, 2]);
  });
  it('ties values equal up to rounding (issue 18.7)', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect([...averageRanks([0.3, 0.1 + 0.2, 0.5])]).toEqual([1.5, 1.5, 3]);
    expect([...averageRanks([0.3, 0.3000001, 0.5])]).toEqual([1, 2, 3]);
  });
});

describe('pearsonCorrelation', () => {
  it('matches a hand computation', () => {
    // x=[1,2,3], y=[2,4,7]: dx=[−1,0,1], dy=[−7/3,−1/3,8/3]; Sxy=5, Sxx=2, Syy=114/9 → 5/√(228/9) = 15/√228
    expect(pearsonCorrelation([1, 2, 3], [2, 4, 7])).toBeCloseTo(15 / Math.sqrt(228), 14);
  });
  it('is NaN for a constant side or fewer than two points', () => {
    expect(pearsonCorrelation([1, 1, 1], [1, 2, 3])).toBeNaN();
    expect(pearsonCorrelation([1], [2])).toBeNaN();
  });
  it('is NaN for a constant non-zero side whose mean does not round back to the value (issue 18.7)', () => {
    // 0.003 × 3 sums to 0.009000000000000001, so x̄ = 0.0030000000000000005 ≠ 0.003 and Σ(x − x̄)² ≈ 1e-37
    // without a tolerance.
    const x = [0.003, 0.003, 0.003];
    let mean = 0;
    for (const v of x) mean += v;
    mean /= 3;
    expect(mean).not.toBe(0.003);
    expect(pearsonCorrelation(x, [1, 2, 3])).toBeNaN();
    expect(pearsonCorrelation([1, 2, 3], x)).toBeNaN();
    // Simple returns (ŷ − y)/y with ŷ = 1.001·y differ from each other in the last bits only.
    const prices = [97.3, 101.9, 55.55, 123.4567, 3.21];
    const forecast = prices.map((p) => (p * 1.001 - p) / p);
    expect(new Set(forecast).size).toBeGreaterThan(1);
    expect(pearsonCorrelation(forecast, [0.1, -0.2, 0.3, 0.05, -0.01])).toBeNaN();
    expect(spearmanCorrelation(forecast, [0.1, -0.2, 0.3, 0.05, -0.01])).toBeNaN();
    // A genuine spread of 1e-6 of the level is kept.
    expect(pearsonCorrelation([0.001, 0.001000001, 0.001000002], [1, 2, 3])).toBeCloseTo(1, 6);
  });
});

describe('spearmanCorrelation / informationCoefficient (FinVerse eq. 10)', () => {
  it('equals 1 − 6Σd²/(n(n²−1)) without ties', () => {
    // ranks equal values; d = [0, −1, 1, 0], Σd² = 2 → 1 − 12/60 = 0.8
    expect(spearmanCorrelation([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(0.8, 14);
    expect(informationCoefficient([0.1, 0.2, 0.3, 0.4], [0.01, 0.03, 0.02, 0.04])).toBeCloseTo(0.8, 14);
  });
  it('ranks ties by average rank (rank-Pearson), not by the 6Σd² shortcut', () => {
    // x=[1,2,2,3] → ranks [1,2.5,2.5,4]; y ranks [1,2,3,4]; both centred at 2.5:
    // dx=[−1.5,0,0,1.5], dy=[−1.5,−.5,.5,1.5]: Sxy=4.5, Sxx=4.5, Syy=5 → 4.5/√22.5 = √0.9
    // (the shortcut would give 1 − 6·0.5/60 = 0.95)
    expect(spearmanCorrelation([1, 2, 2, 3], [1, 2, 3, 4])).toBeCloseTo(Math.sqrt(0.9), 14);
  });
  it('averages IC_o over origins, skipping undefined ones and absent assets', () => {
    // origin 0: asset 4 has NaN forecast → dropped; remaining is the 0.8 case
    // origin 1: reversed order → −1;  origin 2: constant forecast → undefined
    // mean = (0.8 − 1)/2 = −0.1
    const m = meanInformationCoefficient(
      [
        [1, 2, 3, 4, Number.NaN],
        [4, 3, 2, 1],
        [5, 5, 5],
      ],
      [
        [1, 3, 2, 4, 9],
        [1, 2, 3, 4],
        [1, 2, 3],
      ],
    );
    expect(m.value).toBeCloseTo(-0.1, 14);
    expect(m.origins).toBe(2);
    expect(m.undefinedOrigins).toBe(1);
  });
});

describe('fintsbSignalMetrics (FinTSB eqs. 4–7)', () => {
  it('averages per-day IC/RankIC and divides by their sample std', () => {
    // day 0: Y=[1,2,3], r=[2,4,7]        → IC = 15/√228, RankIC = 1
    // day 1: Y=[1,2,3], r=[3,1,2]        → dx=[−1,0,1], dy=[1,−1,0]: Sxy=−1, Sxx=Syy=2 → IC = RankIC = −0.5
    // day 2: Y=[3,1,2], r=[.3,.1,.2]     → IC = RankIC = 1
    // RankIC mean = 1.5/3 = 0.5; deviations (.5, −1, .5) → var = 1.5/2 = .75 → RankICIR = .5/√.75 = 1/√3
    const ic0 = 15 / Math.sqrt(228);
    const icMean = (ic0 - 0.5 + 1) / 3;
    const icVar = ((ic0 - icMean) ** 2 + (-0.5 - icMean) ** 2 + (1 - icMean) ** 2) / 2;
    const m = fintsbSignalMetrics(
      [
        [1, 2, 3],
        [1, 2, 3],
        [3, 1, 2],
      ],
      [
        [2, 4, 7],
        [3, 1, 2],
        [0.3, 0.1, 0.2],
      ],
    );
    expect(m.ic).toBeCloseTo(icMean, 14);
    expect(m.icir).toBeCloseTo(icMean / Math.sqrt(icVar), 12);
    expect(m.rankIc).toBeCloseTo(0.5, 14);
    expect(m.rankIcir).toBeCloseTo(1 / Math.sqrt(3), 12);
    expect(m.days).toBe(3);
  });
  it('gives n/a, not a tiny IC, for a model forecasting the same return everywhere (issue 18.7)', () => {
    const prices = [97.3, 101.9, 55.55, 123.4567];
    const forecast = prices.map((p) => (p * 1.001 - p) / p);
    const m = fintsbSignalMetrics(
      [forecast, forecast, forecast],
      [
        [0.1, -0.2, 0.3, 0.05],
        [0.2, 0.1, -0.3, 0.0],
        [-0.1, 0.4, 0.2, 0.1],
      ],
    );
    expect(m.ic).toBeNaN();
    expect(m.icir).toBeNaN();
    expect(m.rankIc).toBeNaN();
    expect(m.days).toBe(0);
  });
  it('rejects mismatched panels', () => {
    expect(() => fintsbSignalMetrics([[1, 2]], [[1, 2, 3]])).toThrow(
      /origin 0 has 2 predicted but 3 realized/,
    );
    expect(() => fintsbSignalMetrics([[1, 2]], [])).toThrow(/1 origins but realized has 0/);
  });
});
