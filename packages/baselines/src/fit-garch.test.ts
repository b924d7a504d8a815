import { describe, expect, it } from 'vitest';
import { fitGarch, garchVarianceForecast, refilterGarch } from './fit-garch.ts';
import { mulberry32 } from './mulberry32.ts';

const rng = mulberry32;
function normals(seed: number): () => number {
  const u = rng(seed);
  return () => Math.sqrt(-2 * Math.log(u() || 1e-300)) * Math.cos(2 * Math.PI * u());
}
/** GARCH(1,1) returns with innovations from `z` (unit variance). */
function simulate(
  n: number,
  omega: number,
  alpha: number,
  beta: number,
  mu: number,
  z: () => number,
): number[] {
  let h = omega / (1 - alpha - beta);
  let e = 0;
  const out: number[] = [];
  for (let t = 0; t < n + 500; t++) {
    h = omega + alpha * e * e + beta * h;
    e = Math.sqrt(h) * z();
    if (t >= 500) out.push(mu + e);
  }
  return out;
}
function studentT(seed: number, nu: number): () => number {
  const z = normals(seed);
  // t_ν = Z/√(χ²_ν/ν), χ²_ν as a sum of ν squared normals (ν whole), scaled to unit variance.
  return () => {
    let chi = 0;
    for (let i = 0; i < nu; i++) chi += z() ** 2;
    return (z() / Math.sqrt(chi / nu)) * Math.sqrt((nu - 2) / nu);
  };
}

describe('fitGarch', () => {
  it('recovers the parameters of a long simulated normal GARCH(1,1)', () => {
    const r = simulate(20000, 1e-5, 0.08, 0.9, 0, normals(7));
    const fit = fitGarch(r);
    expect(fit.converged).toBe(true);
    expect(Math.abs(fit.alpha - 0.08)).toBeLessThan(0.015);
    expect(Math.abs(fit.beta - 0.9)).toBeLessThan(0.02);
    expect(Math.abs(fit.omega / 1e-5 - 1)).toBeLessThan(0.3);
  });

  it('estimates a constant mean and Student-t degrees of freedom', () => {
    const r = simulate(20000, 2e-5, 0.1, 0.85, 5e-4, studentT(11, 5));
    const fit = fitGarch(r, { mean: 'constant', distribution: 'student' });
    expect(Math.abs(fit.mu - 5e-4)).toBeLessThan(1.5e-4);
    expect(fit.nu).toBeGreaterThan(4);
    expect(fit.nu).toBeLessThan(6.5);
    expect(Math.abs(fit.alpha - 0.1)).toBeLessThan(0.02);
    // The normal (quasi-ML) fit of the same data estimates about the same mean.
    const normal = fitGarch(r, { mean: 'constant' });
    expect(Math.abs(normal.mu - fit.mu)).toBeLessThan(3e-4);
  });

  it('is scale-equivariant: ω scales with the square, α and β do not', () => {
    const r = simulate(3000, 1e-5, 0.1, 0.85, 0, normals(3));
    const a = fitGarch(r);
    const b = fitGarch(r.map((v) => v * 100));
    expect(Math.abs(b.omega / a.omega / 1e4 - 1)).toBeLessThan(1e-6);
    expect(Math.abs(b.alpha - a.alpha)).toBeLessThan(1e-7);
    expect(Math.abs(b.beta - a.beta)).toBeLessThan(1e-7);
  });

  it('refits only by filtering: the same parameters on new data, h from the new data', () => {
    const r = simulate(2000, 1e-5, 0.1, 0.85, 0, normals(5));
    const fit = fitGarch(r.slice(0, 1000));
    const next = refilterGarch(fit, r.slice(1000));
    expect(next.alpha).toBe(fit.alpha);
    expect(next.n).toBe(1000);
    // h_{n+1} by hand from the recursion on the new stretch
    const y = r.slice(1000);
    let h = y.reduce((s, v) => s + v * v, 0) / y.length;
    for (let i = 1; i < y.length; i++) h = fit.omega + fit.alpha * y[i - 1] ** 2 + fit.beta * h;
    const expected = fit.omega + fit.alpha * y[y.length - 1] ** 2 + fit.beta * h;
    expect(Math.abs(next.nextVariance / expected - 1)).toBeLessThan(1e-12);
    const f = garchVarianceForecast(next, 3);
    expect(f[0]).toBe(next.nextVariance);
    expect(Math.abs(f[2] - (fit.omega + (fit.alpha + fit.beta) * f[1]))).toBeLessThan(1e-18);
  });

  it('refuses too few or non-finite returns', () => {
    expect(() => fitGarch([0.1, 0.2])).toThrow(/at least 10/);
    expect(() => fitGarch([...Array(20).fill(0.01), Number.NaN])).toThrow(/not finite/);
  });
});
