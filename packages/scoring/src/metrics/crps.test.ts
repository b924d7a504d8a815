import { normalCdf } from '@asof/stats';
import { describe, expect, it } from 'vitest';
import { crpsGaussian } from './crps-gaussian.ts';
import { crpsQuantiles } from './crps-quantiles.ts';
import { crpsSamples } from './crps-samples.ts';

/** mulberry32 + Box–Muller: deterministic N(μ, σ²) draws so the test cannot flake. */
function gaussianSamples(m: number, mu: number, sigma: number, seed: number): Float64Array {
  let s = seed >>> 0;
  const uniform = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = new Float64Array(m);
  for (let i = 0; i < m; i += 2) {
    const u1 = 1 - uniform();
    const u2 = uniform();
    const r = Math.sqrt(-2 * Math.log(u1));
    out[i] = mu + sigma * r * Math.cos(2 * Math.PI * u2);
    if (i + 1 < m) out[i + 1] = mu + sigma * r * Math.sin(2 * Math.PI * u2);
  }
  return out;
}

/** Φ⁻¹ by bisection on normalCdf (test-only; 60 halvings reach double precision). */
function normalQuantile(p: number): number {
  let lo = -40;
  let hi = 40;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (normalCdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

describe('crpsSamples (fair estimator)', () => {
  it('matches hand values on tiny samples', () => {
    // {0,1,3}, y=2: (1/3)(2+1+1) = 4/3; Σ_i Σ_j |x_i−x_j| = 2(1+3+2) = 12; 12/(2·3·2) = 1 → 4/3 − 1 = 1/3
    // (the plain estimator would divide by 2m² = 18 and give 4/3 − 2/3 = 2/3)
    expect(crpsSamples([0, 1, 3], 2)).toBeCloseTo(1 / 3, 15);
    expect(crpsSamples([3, 0, 1], 2)).toBeCloseTo(1 / 3, 15);
    // {0,2}, y=1: (1+1)/2 = 1; ΣΣ = 4; 4/(2·2·1) = 1 → 0
    expect(crpsSamples([0, 2], 1)).toBeCloseTo(0, 15);
    // {1,1,1,1}, y=3: spread term 0 → |1−3| = 2
    expect(crpsSamples([1, 1, 1, 1], 3)).toBe(2);
  });
  it('refuses a single sample', () => {
    expect(() => crpsSamples([1], 0)).toThrow(/at least 2/);
  });
  it('converges to the closed-form Gaussian CRPS on large samples', () => {
    // E|X−X'| = 2σ/√π ≈ 1.13σ, so sampling error of the estimator is O(σ/√m); m = 200k → ≈ 0.002σ
    for (const [mu, sigma, y, seed] of [
      [0, 1, 0.3, 1],
      [0.01, 0.05, -0.08, 2],
      [5, 2, 9, 3],
    ]) {
      const x = gaussianSamples(200_000, mu, sigma, seed);
      expect(Math.abs(crpsSamples(x, y) - crpsGaussian(mu, sigma, y))).toBeLessThan(0.01 * sigma);
    }
  });
});

describe('crpsGaussian and normalCdf', () => {
  it('match textbook values', () => {
    // y = μ: σ(2φ(0) − 1/√π) = σ(√2 − 1)/√π
    expect(crpsGaussian(0, 2, 0)).toBeCloseTo((2 * (Math.SQRT2 - 1)) / Math.sqrt(Math.PI), 14);
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 14);
    expect(normalCdf(-1)).toBeCloseTo(0.15865525393145707, 14);
    // Φ(−8) = 6.220960574271784e-16 (tabulated); the lower tail is computed directly, not as 1 − Φ(8)
    expect(normalCdf(-8) / 6.220960574271784e-16).toBeCloseTo(1, 10);
  });
});

describe('crpsQuantiles (trapezoid of pinball loss, flagged)', () => {
  it('matches a hand integral', () => {
    // τ = [.25,.5,.75], q = [−1,0,1], y = 0: ρ = [.25·1, 0, (−1)(.75−1)] = [.25, 0, .25]
    // trapezoid: .25·(.25+0)/2 + .25·(0+.25)/2 = .0625; ×2 = .125
    expect(crpsQuantiles([0.25, 0.5, 0.75], [-1, 0, 1], 0)).toEqual({ value: 0.125, approximate: true });
    // y = 2: ρ = [.25·3, .5·2, .75·1] = [.75, 1, .75] → .25·1.75/2·2 = .4375; ×2 = .875
    expect(crpsQuantiles([0.25, 0.5, 0.75], [-1, 0, 1], 2).value).toBeCloseTo(0.875, 15);
  });
  it('approaches the Gaussian CRPS from below on a fine grid (tails ignored)', () => {
    const levels: number[] = [];
    for (let i = 1; i < 200; i++) levels.push(i / 200);
    const q = levels.map((t) => 0.1 * normalQuantile(t));
    for (const y of [0, 0.05, -0.2]) {
      const exact = crpsGaussian(0, 0.1, y);
      const approx = crpsQuantiles(levels, q, y).value;
      expect(approx).toBeLessThan(exact);
      expect(approx).toBeGreaterThan(0.97 * exact);
    }
  });
  it('rejects bad grids and crossing quantiles', () => {
    expect(() => crpsQuantiles([0.5, 0.25], [0, 1], 0)).toThrow(/strictly increasing/);
    expect(() => crpsQuantiles([0.25, 0.75], [1, 0], 0)).toThrow(/non-decreasing/);
  });
});
