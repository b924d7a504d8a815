import { describe, expect, it } from 'vitest';
import { deltaHitRate } from './delta-hit-rate.ts';
import { delta2HitRate } from './delta2-hit-rate.ts';
import { hitRate } from './hit-rate.ts';
import { relativeChange } from './relative-change.ts';

describe('relativeChange (FinVerse eq. 1)', () => {
  it('is y_end / y_ref − 1', () => {
    // 110/100 − 1 = 0.1, 90/100 − 1 = −0.1, 50/50 − 1 = 0
    const r = relativeChange([110, 90, 50], [100, 100, 50]);
    expect(r[0]).toBeCloseTo(0.1, 15);
    expect(r[1]).toBeCloseTo(-0.1, 15);
    expect(r[2]).toBe(0);
  });
  it('rejects a zero reference and NaN input, naming the index', () => {
    expect(() => relativeChange([1, 2], [1, 0])).toThrow(/reference\[1\] is 0/);
    expect(() => relativeChange([1, Number.NaN], [1, 1])).toThrow(/'end'\[1\] is NaN/);
    expect(() => relativeChange([1, 2], [1])).toThrow(/has 1 values but 'end' has 2/);
  });
});

describe('hitRate (FinVerse eq. 2)', () => {
  it('counts sign agreement, with sign(0) = 0 a value of its own', () => {
    // r̂ = [ .05,  .02, −.01, 0], r = [.1, −.1, −.03, 0]
    // signs: (+,+) hit, (+,−) miss, (−,−) hit, (0,0) hit → 3/4
    expect(hitRate([0.05, 0.02, -0.01, 0], [0.1, -0.1, -0.03, 0])).toBe(0.75);
    // a zero forecast against a non-zero outcome is a miss: (0,+) → 0/1
    expect(hitRate([0], [0.01])).toBe(0);
  });
  it('accepts Float64Array and gives NaN for no origins', () => {
    expect(hitRate(new Float64Array([1, -1]), new Float64Array([2, 3]))).toBe(0.5);
    expect(hitRate([], [])).toBeNaN();
  });
});

// Four origins with explicit r_{o−1}, r_{o−2} (worked by hand):
//  A: r=.03  r̂=.05  r1=.06 r2=.08  Δr=−.03 Δr̂=−.01 ✓  Δ²r=.03−.12+.08=−.01  Δ²r̂=.05−.12+.08=+.01 ✗
//  B: r=.03  r̂=.01  r1=.02 r2=0    Δr=+.01 Δr̂=−.01 ✗
//  C: r=−.02 r̂=−.01 r1=.01 r2=.01  Δr=−.03 Δr̂=−.02 ✓  Δ²r=−.02−.02+.01=−.03 Δ²r̂=−.01−.02+.01=−.02 ✓
//  D: r=.02  r̂=−.01 → sign miss
//  HR: A,B,C = 3/4;  ΔHR: A,C = 2/4;  Δ²HR: C = 1/4
const predicted = [0.05, 0.01, -0.01, -0.01];
const realized = [0.03, 0.03, -0.02, 0.02];
const prev1 = [0.06, 0.02, 0.01, 0.01];
const prev2 = [0.08, 0, 0.01, 0.01];

describe('deltaHitRate (FinVerse eqs. 3, 5) and delta2HitRate (eqs. 4, 6)', () => {
  it('match the hand-worked origins with explicit predecessors', () => {
    expect(hitRate(predicted, realized)).toBe(0.75);
    expect(deltaHitRate(predicted, realized, { realizedPrev1: prev1 })).toBe(0.5);
    expect(delta2HitRate(predicted, realized, { realizedPrev1: prev1, realizedPrev2: prev2 })).toBe(0.25);
  });
  it('take predecessors from the array itself for consecutive origins, dropping the first one/two', () => {
    // realized = [.08, .06, .03] (origins 0,1,2), predicted = [.01, .07, .05]
    // ΔHR over origins 1,2: o=1 r=.06 r1=.08 Δr=−.02, r̂=.07 Δr̂=−.01 ✓ sign ✓ → hit; o=2 is origin A → hit → 2/2
    // Δ²HR over origin 2 only: origin A → miss → 0/1
    expect(deltaHitRate([0.01, 0.07, 0.05], [0.08, 0.06, 0.03])).toBe(1);
    expect(delta2HitRate([0.01, 0.07, 0.05], [0.08, 0.06, 0.03])).toBe(0);
    expect(delta2HitRate([0.01, 0.07], [0.08, 0.06])).toBeNaN();
  });
  it('uses the realised r_{o−1}, not the forecast, as the base of Δr̂', () => {
    // One origin: r=.05, r1=.04 (Δr=+.01). r̂=.045: Δr̂ = .045 − r1 = +.005 → hit.
    // (Differencing against a previous forecast of .06 would give −.015, a miss.)
    expect(deltaHitRate([0.045], [0.05], { realizedPrev1: [0.04] })).toBe(1);
  });
  it('refuses half of the Δ² predecessors', () => {
    expect(() => delta2HitRate([1], [1], { realizedPrev1: [1] })).toThrow(
      /both realizedPrev1 and realizedPrev2/,
    );
  });
});
