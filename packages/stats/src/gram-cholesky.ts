/**
 * In-place Cholesky G = L·Lᵀ of a row-major c×c Gram matrix of an augmented design [X | y] (lower
 * triangle read and overwritten; the upper triangle is ignored). Lᵀ is the R of a QR of [X | y], so
 * row c−1 of L holds z = Qᵀy for the regressors and √SSR on the diagonal — the same quantities
 * `householderQr` yields, from an O(c³) factorisation instead of an O(m·c²) one.
 *
 * Forming Gram matrices squares the condition number, so the factorisation reports how much of each
 * column survives projection on the previous ones (pivot / G_kk, i.e. 1 − R²_k). It returns false
 * when that falls below `minPivotRatio` anywhere (including the response, whose pivot is the SSR): the
 * caller must then fall back to Householder QR. With ratio ≥ 1e-5 the rounding in any pivot is
 * below ~c·ε/1e-5 ≈ 1e-9 relative, well inside the 1e-6 agreement the reference tests demand.
 */
export function gramCholesky(g: Float64Array, c: number, minPivotRatio: number): boolean {
  for (let k = 0; k < c; k++) {
    const rk = k * c;
    const gkk = g[rk + k];
    let d = gkk;
    for (let j = 0; j < k; j++) d -= g[rk + j] * g[rk + j];
    if (!(d > minPivotRatio * gkk)) return false;
    const lkk = Math.sqrt(d);
    g[rk + k] = lkk;
    for (let i = k + 1; i < c; i++) {
      const ri = i * c;
      let s = g[ri + k];
      for (let j = 0; j < k; j++) s -= g[ri + j] * g[rk + j];
      g[ri + k] = s / lkk;
    }
  }
  return true;
}
