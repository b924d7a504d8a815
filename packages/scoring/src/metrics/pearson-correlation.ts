import { checkArrays, type NumericArray } from './check-arrays.ts';
import { negligibleSpread } from './float-tolerance.ts';

/**
 * Pearson correlation Σ(x−x̄)(y−ȳ) / (√Σ(x−x̄)² · √Σ(y−ȳ)²). NaN when n < 2 or either side is constant
 * (correlation undefined, e.g. the random walk's constant forecast; Tycheon reports that as n/a). Constant
 * means a spread within rounding of the values' size (negligibleSpread): a forecast of 0.001 everywhere
 * has Σ(x−x̄)² ≈ 1e-37 from x̄'s rounding, not 0, and would otherwise correlate its rounding noise.
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
  let ax = 0;
  let ay = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
    ax = Math.max(ax, Math.abs(x[i]));
    ay = Math.max(ay, Math.abs(y[i]));
  }
  if (negligibleSpread(sxx, n, ax) || negligibleSpread(syy, n, ay)) return Number.NaN;
  return sxy / (Math.sqrt(sxx) * Math.sqrt(syy));
}
