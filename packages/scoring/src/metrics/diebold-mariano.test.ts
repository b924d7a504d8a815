import { describe, expect, it } from 'vitest';
import { dieboldMariano, squaredErrors } from './diebold-mariano.ts';
import { verdictVsRandomWalk } from './verdict-vs-random-walk.ts';

/** t CDF with 3 df in closed form: ½ + (θ + sinθ cosθ)/π, θ = atan(t/√3). */
const t3 = (t: number) => {
  const th = Math.atan(t / Math.sqrt(3));
  return 0.5 + (th + Math.sin(th) * Math.cos(th)) / Math.PI;
};

describe('dieboldMariano (HLN-corrected)', () => {
  it('matches a hand computation for h = 1', () => {
    // d = [1−2, 2−2, 3−4, 4−6] = [−1, 0, −1, −2], d̄ = −1; deviations [0, 1, 0, −1]
    // γ0 = 2/4 = .5; V = γ0/n = .125; DM = −1/√.125 = −2√2
    // HLN: (n + 1 − 2h + h(h−1)/n)/n = (4 + 1 − 2)/4 = 3/4 → DM* = −2√2·√(3/4) = −√6; df = 3
    const r = dieboldMariano([1, 2, 3, 4], [2, 2, 4, 6]);
    expect(r.meanDifferential).toBe(-1);
    expect(r.statistic).toBeCloseTo(-Math.sqrt(6), 13);
    expect(r.pModelBetter).toBeCloseTo(t3(-Math.sqrt(6)), 13); // ≈ 0.0459
    expect(r.pModelWorse).toBeCloseTo(1 - t3(-Math.sqrt(6)), 13);
    expect(r.n).toBe(4);
  });
  it('matches a hand computation for h = 2', () => {
    // same d; γ1 = (1/4)Σ_{t≥1}(d_t−d̄)(d_{t−1}−d̄) = (1·0 + 0·1 + (−1)·0)/4 = 0 → V = .125 again
    // HLN: (4 + 1 − 4 + 2·1/4)/4 = 1.5/4 = .375 → DM* = −2√2·√.375 = −√3
    const r = dieboldMariano([1, 2, 3, 4], [2, 2, 4, 6], { horizon: 2 });
    expect(r.statistic).toBeCloseTo(-Math.sqrt(3), 13);
    expect(r.pModelBetter).toBeCloseTo(t3(-Math.sqrt(3)), 13); // θ = −π/4 → ½ − (π/4 + ½)/π ≈ 0.0908
    expect(r.horizon).toBe(2);
    expect(r.fellBackToH1).toBe(false);
  });
  it('falls back to h = 1 when the autocovariance sum is not positive (as R dm.test)', () => {
    // d = [1, −1, 1, −1]: γ0 = 1, γ1 = −3/4 → γ0 + 2γ1 = −.5 < 0 → h = 1; d̄ = 0 → DM* = 0, p = ½
    const r = dieboldMariano([1, 0, 1, 0], [0, 1, 0, 1], { horizon: 2 });
    expect(r.fellBackToH1).toBe(true);
    expect(r.horizon).toBe(1);
    expect(r.statistic).toBe(0);
    expect(r.pModelBetter).toBe(0.5);
  });
  it('gives NaN for a zero-variance differential and refuses n < 2', () => {
    const r = dieboldMariano([1, 1, 1], [1, 1, 1]);
    expect(r.statistic).toBeNaN();
    expect(r.pModelBetter).toBeNaN();
    expect(() => dieboldMariano([1], [2])).toThrow(/at least 2/);
  });
  it('gives n/a for a differential that is rounding noise: a model equal to the baseline (issue 18.7)', () => {
    // The same losses computed another way: a(1 + 1e-15·u), so d is ~1e-16 of the losses, not 0.
    const base = Array.from({ length: 200 }, (_, i) => 0.01 * (1 + Math.sin(i)) + 1e-4);
    const same = base.map((x, i) => x * (1 + 1e-15 * Math.cos(7 * i)));
    expect(same.some((x, i) => x !== base[i])).toBe(true);
    const r = dieboldMariano(same, base);
    expect(r.belowRounding).toBe(true);
    expect(r.statistic).toBeNaN();
    expect(r.pModelBetter).toBeNaN();
    expect(r.pModelWorse).toBeNaN();
    // A genuine differential of 1e-6 of the losses is tested.
    const close = base.map((x, i) => x * (1 + 1e-6 * Math.cos(7 * i)));
    const t = dieboldMariano(close, base);
    expect(t.belowRounding).toBe(false);
    expect(Number.isFinite(t.statistic)).toBe(true);
  });
  it('squaredErrors squares forecast − actual', () => {
    expect([...squaredErrors([1, 2], [3, 2.5])]).toEqual([4, 0.25]);
  });
});

describe('verdictVsRandomWalk (Tycheon)', () => {
  const better = { pModelBetter: 0.01, pModelWorse: 0.99 };
  const worse = { pModelBetter: 0.99, pModelWorse: 0.01 };
  const unclear = { pModelBetter: 0.2, pModelWorse: 0.8 };
  it('needs both tests to agree at p < 0.05', () => {
    expect(verdictVsRandomWalk(better, better)).toBe('beats');
    expect(verdictVsRandomWalk(worse, worse)).toBe('worse');
    expect(verdictVsRandomWalk(better, unclear)).toBe('indistinguishable');
    expect(verdictVsRandomWalk(better, worse)).toBe('indistinguishable');
    expect(verdictVsRandomWalk({ pModelBetter: 0.05, pModelWorse: 0.95 }, better)).toBe('indistinguishable');
    expect(verdictVsRandomWalk({ pModelBetter: Number.NaN, pModelWorse: Number.NaN }, better)).toBe(
      'indistinguishable',
    );
  });
});
