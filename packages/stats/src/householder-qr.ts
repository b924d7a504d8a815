/**
 * In-place Householder QR of a column-major m×c matrix whose last column is the response y.
 *
 * Only the first c−1 (regressor) columns are reduced; the reflections are applied to y too, so on
 * return column c−1 holds z = Qᵀy. Because the regressors are reduced left to right, the residual sum
 * of squares of the regression on the first k columns is Σ_{i≥k} z_i² — one factorisation gives the
 * SSR of every nested prefix model, which is what AIC lag selection needs.
 *
 * Householder (rather than normal equations) keeps the error proportional to cond(X), not cond(X)²:
 * the ADF design puts a level, a linear trend and near-collinear differences side by side.
 *
 * Returns false when a regressor column is (numerically) a combination of the previous ones; the
 * caller then treats the design as rank deficient.
 */
export function householderQr(a: Float64Array, m: number, c: number, diag: Float64Array): boolean {
  const p = c - 1;
  for (let k = 0; k < p; k++) {
    const ck = k * m;
    let colNorm2 = 0;
    for (let i = 0; i < m; i++) colNorm2 += a[ck + i] * a[ck + i];
    let norm2 = 0;
    for (let i = k; i < m; i++) norm2 += a[ck + i] * a[ck + i];
    const norm = Math.sqrt(norm2);
    // Relative tolerance against the full column norm: a column that loses all but ~1e-10 of its
    // length to the previous columns is collinear for any practical purpose (numpy's matrix_rank
    // uses a comparable SVD-based tolerance).
    if (!(norm > 1e-10 * Math.sqrt(colNorm2))) return false;
    const x0 = a[ck + k];
    const alpha = x0 >= 0 ? -norm : norm;
    a[ck + k] = x0 - alpha;
    const vtv = 2 * (norm2 - alpha * x0);
    for (let j = k + 1; j < c; j++) {
      const cj = j * m;
      let s = 0;
      for (let i = k; i < m; i++) s += a[ck + i] * a[cj + i];
      const f = (2 * s) / vtv;
      for (let i = k; i < m; i++) a[cj + i] -= f * a[ck + i];
    }
    diag[k] = alpha;
  }
  return true;
}
