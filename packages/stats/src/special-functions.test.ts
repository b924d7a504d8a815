import { describe, expect, it } from 'vitest';
import { logGamma } from './log-gamma.ts';
import { regularizedIncompleteBeta } from './regularized-incomplete-beta.ts';
import { studentTCdf, studentTSurvival } from './student-t-cdf.ts';

describe('logGamma', () => {
  it('matches factorials and Γ(½) = √π', () => {
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 13);
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 13);
    expect(logGamma(101)).toBeCloseTo(363.73937555556347, 9); // ln 100!
  });
});

describe('regularizedIncompleteBeta', () => {
  it('matches closed forms I_x(a,1) = x^a and I_x(1,b) = 1 − (1−x)^b', () => {
    expect(regularizedIncompleteBeta(0.3, 2, 1)).toBeCloseTo(0.09, 14);
    expect(regularizedIncompleteBeta(0.3, 1, 3)).toBeCloseTo(1 - 0.7 ** 3, 14);
    expect(regularizedIncompleteBeta(0.9, 1, 3)).toBeCloseTo(1 - 0.1 ** 3, 14);
    // symmetry I_x(a,b) = 1 − I_{1−x}(b,a)
    expect(regularizedIncompleteBeta(0.4, 2.5, 7)).toBeCloseTo(
      1 - regularizedIncompleteBeta(0.6, 7, 2.5),
      14,
    );
  });
});

describe('studentTCdf', () => {
  it('matches the Cauchy (df = 1) and df = 2 closed forms', () => {
    // df = 1: F(t) = ½ + atan(t)/π;  df = 2: F(t) = ½ + t/(2√(2 + t²))
    for (const t of [-3, -0.5, 0, 1, 2.5]) {
      expect(studentTCdf(t, 1)).toBeCloseTo(0.5 + Math.atan(t) / Math.PI, 14);
      expect(studentTCdf(t, 2)).toBeCloseTo(0.5 + t / (2 * Math.sqrt(2 + t * t)), 14);
    }
  });
  it('matches the df = 3 closed form ½ + (θ + sinθ cosθ)/π, θ = atan(t/√3)', () => {
    for (const t of [-2.449489742783178, -1, 0.7, 4]) {
      const th = Math.atan(t / Math.sqrt(3));
      expect(studentTCdf(t, 3)).toBeCloseTo(0.5 + (th + Math.sin(th) * Math.cos(th)) / Math.PI, 14);
    }
  });
  it('tends to the normal for large df and keeps small tails', () => {
    expect(studentTCdf(1.959963984540054, 1e7)).toBeCloseTo(0.975, 6);
    // df = 1 upper tail at t = 1e6: 1/(π t) ≈ 3.1831e-7, computed without cancellation
    expect(studentTSurvival(1e6, 1) / (1 / (Math.PI * 1e6))).toBeCloseTo(1, 6);
  });
});
