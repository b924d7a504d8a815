/**
 * Lag-1 autocorrelation, FinTSB eq. 2 with k = 1 (the biased estimator, as numpy/statsmodels `acf`):
 * Σ_{t=2..n} (x_t − x̄)(x_{t−1} − x̄) / Σ_{t=1..n} (x_t − x̄)².
 * NaN for fewer than 2 values or a constant series (0/0), so a suspended-trading segment does not
 * masquerade as "no autocorrelation".
 */
export function lag1Autocorrelation(x: Float64Array): number {
  const n = x.length;
  if (n < 2) return Number.NaN;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += x[i];
  const mean = sum / n;
  let prev = x[0] - mean;
  let den = prev * prev;
  let num = 0;
  for (let i = 1; i < n; i++) {
    const d = x[i] - mean;
    num += d * prev;
    den += d * d;
    prev = d;
  }
  return den > 0 ? num / den : Number.NaN;
}
