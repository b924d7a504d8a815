import { describe, expect, it } from 'vitest';
import {
  arFromUnconstrained,
  arToUnconstrained,
  invertMa,
  polynomialRoots,
  rootsOutside,
} from './arima-params.ts';
import {
  conditionalSumOfSquares,
  differencingPolynomial,
  kalmanFilter,
  kalmanForecast,
  makeStateModel,
  stationaryCovariance,
} from './arima-state-space.ts';

describe('ARIMA parameter maps', () => {
  it('the AR transform maps any reals to a stationary AR and back', () => {
    const u = Float64Array.of(1.3, -0.4, 2.1);
    const phi = arFromUnconstrained(u);
    expect(rootsOutside(phi)).toBe(true);
    arToUnconstrained(phi).forEach((v, i) => {
      expect(Math.abs(v - u[i])).toBeLessThan(1e-12);
    });
  });

  it('rootsOutside agrees with the roots themselves, for a radius too', () => {
    // 1 − 1.5z + 0.56z² = (1 − 0.7z)(1 − 0.8z): roots 1/0.7, 1/0.8 = 1.25
    expect(rootsOutside([1.5, -0.56])).toBe(true);
    expect(rootsOutside([1.5, -0.56], 1.2)).toBe(true);
    expect(rootsOutside([1.5, -0.56], 1.3)).toBe(false);
    expect(rootsOutside([1.1])).toBe(false);
    expect(rootsOutside([0.5, 0, 0])).toBe(true);
    const mods = polynomialRoots([1, -1.5, 0.56])
      .map(([r, i]) => Math.hypot(r, i))
      .sort();
    expect(Math.abs(mods[0] - 1.25)).toBeLessThan(1e-12);
    expect(Math.abs(mods[1] - 1 / 0.7)).toBeLessThan(1e-12);
  });

  it('invertMa flips roots inside the unit circle and keeps invertible ones', () => {
    expect(Array.from(invertMa([2]))).toEqual([0.5]);
    expect(Array.from(invertMa([0.3, 0.1]))).toEqual([0.3, 0.1]);
    // 1 + 2.5z + z² = (1 + 2z)(1 + 0.5z): root −0.5 inside → (1 + 0.5z)² = 1 + z + 0.25z²
    const out = invertMa([2.5, 1]);
    expect(Math.abs(out[0] - 1)).toBeLessThan(1e-12);
    expect(Math.abs(out[1] - 0.25)).toBeLessThan(1e-12);
  });
});

describe('ARIMA state space', () => {
  it('differencing polynomials', () => {
    expect(Array.from(differencingPolynomial(1))).toEqual([1]);
    expect(Array.from(differencingPolynomial(2))).toEqual([2, -1]);
  });

  it('the stationary covariance of ARMA(1,1) matches its closed form', () => {
    const phi = 0.6;
    const theta = 0.3;
    const Q = stationaryCovariance([phi], [theta], 2)!;
    // Harvey's state (a₁ = y_t, a₂ = θε_t): var(y) = (1 + 2φθ + θ²)/(1 − φ²), cov(y, θε) = θ, var = θ².
    expect(Math.abs(Q[0] - (1 + 2 * phi * theta + theta * theta) / (1 - phi * phi))).toBeLessThan(1e-12);
    expect(Math.abs(Q[1] - theta)).toBeLessThan(1e-12);
    expect(Math.abs(Q[3] - theta * theta)).toBeLessThan(1e-12);
    expect(stationaryCovariance([1], [], 1)).toBeNull();
  });

  it('the Kalman filter of a random walk has innovations y_t − y_{t−1} and forecast variance h', () => {
    const y = [1, 3, 2, 5, 4];
    const m = makeStateModel(new Float64Array(0), new Float64Array(0), 1)!;
    const res = kalmanFilter(m, y, true);
    expect(res.nu).toBe(4);
    expect(Math.abs(res.ssq - (4 + 1 + 9 + 1))).toBeLessThan(1e-6);
    const fc = kalmanForecast(m, 3);
    for (const v of fc.mean) expect(Math.abs(v - 4)).toBeLessThan(1e-9);
    fc.variance.forEach((v, k) => {
      expect(Math.abs(v - (k + 1))).toBeLessThan(1e-6);
    });
  });

  it('a missing value is skipped: the next innovation spans two steps', () => {
    const m = makeStateModel(new Float64Array(0), new Float64Array(0), 1)!;
    const res = kalmanFilter(m, [1, Number.NaN, 4], true);
    expect(Number.isNaN(res.residuals![1])).toBe(true);
    expect(Math.abs(res.ssq - 9 / 2)).toBeLessThan(1e-6);
  });

  it('conditional sum of squares of an AR(1)', () => {
    const y = [1, 2, 0, 1];
    const res = conditionalSumOfSquares(y, 0, [0.5], [], 1);
    // e = 2 − 0.5, 0 − 1, 1 − 0
    expect(res.sigma2).toBeCloseTo((1.5 ** 2 + 1 + 1) / 3, 14);
  });
});
