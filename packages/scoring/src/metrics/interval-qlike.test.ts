import { describe, expect, it } from 'vitest';
import { intervalCoverage } from './interval-coverage.ts';
import { qlike, realizedVariance } from './qlike.ts';

describe('intervalCoverage (Tycheon)', () => {
  it('counts closed-interval hits and mean width', () => {
    // y=0 in [−1,1] ✓; y=1 in [−1,1] ✓ (closed); y=3 in [0,2] ✗; y=−.1 in [0,.5] ✗ → 2/4
    // widths 2, 2, 2, .5 → 6.5/4 = 1.625; nominal .8 → error −.3
    const c = intervalCoverage([-1, -1, 0, 0], [1, 1, 2, 0.5], [0, 1, 3, -0.1], 0.8);
    expect(c.coverage).toBe(0.5);
    expect(c.meanWidth).toBe(1.625);
    expect(c.coverageError).toBeCloseTo(-0.3, 15);
    expect(c.n).toBe(4);
  });
  it('rejects lower > upper and a nominal outside (0, 1)', () => {
    expect(() => intervalCoverage([2], [1], [0], 0.5)).toThrow(/lower\[0\] = 2 > upper\[0\] = 1/);
    expect(() => intervalCoverage([0], [1], [0], 80)).toThrow(/nominal is 80/);
  });
});

describe('qlike (Tycheon, Patton form)', () => {
  it('is RV/h − ln(RV/h) − 1 averaged', () => {
    // (h, RV) = (1, 1) → 0; (2, 1) → .5 − ln .5 − 1 = ln 2 − .5 → mean (ln 2 − .5)/2
    expect(qlike([1, 2], [1, 1])).toBeCloseTo((Math.LN2 - 0.5) / 2, 15);
  });
  it('penalises under-prediction of variance more than over-prediction', () => {
    // RV = 1: h = .5 → 2 − ln 2 − 1 ≈ .307; h = 2 → ln 2 − .5 ≈ .193
    expect(qlike([0.5], [1])).toBeGreaterThan(qlike([2], [1]));
  });
  it('refuses non-positive variances', () => {
    expect(() => qlike([1], [0])).toThrow(/realised variance 0/);
  });
  it('realizedVariance sums squared daily returns', () => {
    // .1² + .2² = .05
    expect(realizedVariance([0.1, -0.2])).toBeCloseTo(0.05, 15);
  });
});
