import { describe, expect, it } from 'vitest';
import { minimizeBox } from './minimize-box.ts';

const INF = Number.POSITIVE_INFINITY;
const rosen = (x: Float64Array) => 100 * (x[1] - x[0] ** 2) ** 2 + (1 - x[0]) ** 2;
const rosenGrad = (x: Float64Array, g: Float64Array) => {
  g[0] = -400 * x[0] * (x[1] - x[0] ** 2) - 2 * (1 - x[0]);
  g[1] = 200 * (x[1] - x[0] ** 2);
};

describe('minimizeBox', () => {
  it('finds the minimum of Rosenbrock without active bounds', () => {
    const res = minimizeBox(rosen, rosenGrad, [-1.2, 1], [-INF, -INF], [INF, INF]);
    expect(res.convergence).toBe(0);
    expect(Math.abs(res.par[0] - 1)).toBeLessThan(1e-6);
    expect(Math.abs(res.par[1] - 1)).toBeLessThan(1e-6);
  });

  it('stops on the bound x ≤ 0.5 of Rosenbrock at (0.5, 0.25), the constrained minimum', () => {
    // For fixed x₁ the best x₂ is x₁², leaving (1 − x₁)², smallest at the bound x₁ = 0.5.
    const res = minimizeBox(rosen, rosenGrad, [-1.2, 1], [-2, -2], [0.5, 2]);
    expect(res.par[0]).toBe(0.5);
    expect(Math.abs(res.par[1] - 0.25)).toBeLessThan(1e-7);
    expect(Math.abs(res.value - 0.25)).toBeLessThan(1e-12);
  });

  it('solves a badly scaled quadratic whose minimum is the box projection of its centre', () => {
    const c = [3, -2, 0.5, 10];
    const w = [1, 1e4, 1e-2, 50];
    const lo = [0, 0, -1, -INF];
    const up = [1, INF, 1, 5];
    const f = (x: Float64Array) => x.reduce((s, v, i) => s + w[i] * (v - c[i]) ** 2, 0);
    const g = (x: Float64Array, out: Float64Array) =>
      x.forEach((v, i) => {
        out[i] = 2 * w[i] * (v - c[i]);
      });
    const res = minimizeBox(f, g, [0.5, 3, 0, 0], lo, up);
    const expected = [1, 0, 0.5, 5];
    res.par.forEach((v, i) => {
      expect(Math.abs(v - expected[i])).toBeLessThan(1e-8);
    });
  });

  it('never evaluates outside the box, and rejects infeasible points inside it', () => {
    // f is +∞ for x₀ + x₁ > 1.5 (inside the box), the minimum (1, 0.5) is on that edge's feasible side.
    const seen: number[][] = [];
    const f = (x: Float64Array) => {
      seen.push([...x]);
      return x[0] + x[1] > 1.5 + 1e-12 ? INF : (x[0] - 2) ** 2 + (x[1] - 0.5) ** 2;
    };
    const g = (x: Float64Array, out: Float64Array) => {
      out[0] = 2 * (x[0] - 2);
      out[1] = 2 * (x[1] - 0.5);
    };
    const res = minimizeBox(f, g, [0, 0], [0, 0], [3, 3]);
    for (const x of seen) for (const v of x) expect(v >= 0 && v <= 3).toBe(true);
    expect(Number.isFinite(res.value)).toBe(true);
    expect(res.par[0] + res.par[1]).toBeLessThanOrEqual(1.5 + 1e-12);
    expect(res.value).toBeLessThan(1.01);
  });

  it('throws when the start is infeasible', () => {
    expect(() =>
      minimizeBox(
        () => INF,
        () => {},
        [0],
        [-1],
        [1],
      ),
    ).toThrow(/not finite/);
  });
});
