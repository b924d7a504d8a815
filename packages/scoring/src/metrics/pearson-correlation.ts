import { checkArrays, type NumericArray } from './check-arrays.ts';

/**
 * Pearson correlation Σ(x−x̄)(y−ȳ) / (√Σ(x−x̄)² · √Σ(y−ȳ)²). NaN when n < 2 or either side is constant
 * (correlation undefined, e.g. the random walk's constant forecast; Tycheon reports that as n/a).
 */
export function pearsonCorrelation(x: NumericArray, y: NumericArray): number {
  const n = checkArrays('pearsonCorrelation', { x, y });
  if (n < 2) return Number.NaN;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return Number.NaN;
  return sxy / (Math.sqrt(sxx) * Math.sqrt(syy));
}
