/**
 * Parameter maps of the ARIMA fit, as stats::arima defines them: the AR part is optimised on
 * unconstrained values u that map through tanh to partial autocorrelations and through the Durbin–Levinson
 * recursion to AR coefficients (always stationary), the MA part as is.
 */

/** u (any reals) → AR coefficients of a stationary AR(p). */
export function arFromUnconstrained(u: ArrayLike<number>): Float64Array {
  const p = u.length;
  const phi = new Float64Array(p);
  for (let i = 0; i < p; i++) phi[i] = Math.tanh(u[i]);
  const work = phi.slice();
  for (let j = 1; j < p; j++) {
    const a = phi[j];
    for (let k = 0; k < j; k++) work[k] -= a * phi[j - k - 1];
    for (let k = 0; k < j; k++) phi[k] = work[k];
  }
  return phi;
}

/** AR coefficients of a stationary AR(p) → u (the inverse of arFromUnconstrained). */
export function arToUnconstrained(phi: ArrayLike<number>): Float64Array {
  const p = phi.length;
  const out = Float64Array.from(phi);
  const work = Float64Array.from(phi);
  for (let j = p - 1; j > 0; j--) {
    const a = out[j];
    for (let k = 0; k < j; k++) work[k] = (out[k] + a * out[j - k - 1]) / (1 - a * a);
    for (let k = 0; k < j; k++) out[k] = work[k];
  }
  for (let j = 0; j < p; j++) out[j] = Math.atanh(out[j]);
  return out;
}

/**
 * True when every root of 1 − c₁z − … − c_p z^p lies strictly outside the circle |z| = radius (radius 1:
 * a stationary AR polynomial). By the Schur–Cohn step-down recursion on the coefficients scaled by
 * radius^i: all partial autocorrelations strictly inside (−1, 1). Trailing zero coefficients are dropped.
 */
export function rootsOutside(c: ArrayLike<number>, radius = 1): boolean {
  let p = c.length;
  while (p > 0 && c[p - 1] === 0) p--;
  if (p === 0) return true;
  const a = new Float64Array(p);
  for (let i = 0; i < p; i++) a[i] = c[i] * radius ** (i + 1);
  const work = new Float64Array(p);
  for (let k = p - 1; k >= 0; k--) {
    const r = a[k];
    if (!(Math.abs(r) < 1)) return false;
    for (let j = 0; j < k; j++) work[j] = (a[j] + r * a[k - j - 1]) / (1 - r * r);
    for (let j = 0; j < k; j++) a[j] = work[j];
  }
  return true;
}

/** Complex roots of c₀ + c₁z + … + c_n z^n (c_n ≠ 0) by Durand–Kerner iteration; [re, im] pairs. */
export function polynomialRoots(c: ArrayLike<number>): [number, number][] {
  let n = c.length - 1;
  while (n > 0 && c[n] === 0) n--;
  if (n < 1) return [];
  const lead = c[n];
  const a = Float64Array.from({ length: n + 1 }, (_, i) => c[i] / lead);
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  // Start on a circle of the Cauchy bound radius at an irrational angle, so no two starts coincide.
  let bound = 0;
  for (let i = 0; i < n; i++) bound = Math.max(bound, Math.abs(a[i]));
  const R = 1 + bound;
  for (let k = 0; k < n; k++) {
    re[k] = R * Math.cos(0.4 + (2 * Math.PI * k) / n);
    im[k] = R * Math.sin(0.4 + (2 * Math.PI * k) / n);
  }
  for (let iter = 0; iter < 1000; iter++) {
    let moved = 0;
    for (let k = 0; k < n; k++) {
      // p(z_k) by Horner.
      let pr = 1;
      let pi = 0;
      for (let i = n - 1; i >= 0; i--) {
        const tr = pr * re[k] - pi * im[k] + a[i];
        pi = pr * im[k] + pi * re[k];
        pr = tr;
      }
      // Π_{j≠k} (z_k − z_j)
      let qr = 1;
      let qi = 0;
      for (let j = 0; j < n; j++) {
        if (j === k) continue;
        const dr = re[k] - re[j];
        const di = im[k] - im[j];
        const tr = qr * dr - qi * di;
        qi = qr * di + qi * dr;
        qr = tr;
      }
      const den = qr * qr + qi * qi;
      if (den === 0) continue;
      const wr = (pr * qr + pi * qi) / den;
      const wi = (pi * qr - pr * qi) / den;
      re[k] -= wr;
      im[k] -= wi;
      moved = Math.max(moved, Math.hypot(wr, wi) / Math.max(1, Math.hypot(re[k], im[k])));
    }
    if (moved < 1e-15) break;
  }
  return Array.from({ length: n }, (_, k) => [re[k], im[k]] as [number, number]);
}

/**
 * An invertible MA polynomial with the same autocorrelations: roots of 1 + θ₁z + … + θ_q z^q inside the
 * unit circle are replaced by their reciprocals (stats::arima's maInvert). Unchanged when none is inside.
 */
export function invertMa(theta: ArrayLike<number>): Float64Array {
  const q = theta.length;
  let q0 = q;
  while (q0 > 0 && theta[q0 - 1] === 0) q0--;
  if (q0 === 0) return Float64Array.from(theta);
  const roots = polynomialRoots([1, ...Array.from(theta).slice(0, q0)]);
  const inside = roots.map(([r, i]) => Math.hypot(r, i) < 1);
  if (!inside.some(Boolean)) return Float64Array.from(theta);
  if (q0 === 1) {
    const out = new Float64Array(q);
    out[0] = 1 / theta[0];
    return out;
  }
  const fixed = roots.map(([r, i], k) => {
    if (!inside[k]) return [r, i] as [number, number];
    const m = r * r + i * i;
    return [r / m, -i / m] as [number, number];
  });
  // Π (1 − z/ρ_k), expanded; the imaginary parts cancel for conjugate pairs.
  let pr = [1];
  let pi = [0];
  for (const [r, i] of fixed) {
    const m = r * r + i * i;
    // 1/ρ = conj(ρ)/|ρ|²
    const ir = r / m;
    const ii = -i / m;
    const nr = new Array(pr.length + 1).fill(0);
    const ni = new Array(pr.length + 1).fill(0);
    for (let k = 0; k < pr.length; k++) {
      nr[k] += pr[k];
      ni[k] += pi[k];
      nr[k + 1] -= pr[k] * ir - pi[k] * ii;
      ni[k + 1] -= pr[k] * ii + pi[k] * ir;
    }
    pr = nr;
    pi = ni;
  }
  const out = new Float64Array(q);
  for (let k = 1; k <= q0; k++) out[k - 1] = pr[k];
  return out;
}

/**
 * ∂(AR coefficients)/∂u by forward differences with step 1e-3 (stats::arima's ARIMA_Gradtrans), as an
 * n×n row-major matrix over all parameters: identity outside the first p.
 */
export function arTransformJacobian(u: ArrayLike<number>, p: number, n: number): Float64Array {
  const A = new Float64Array(n * n);
  for (let i = 0; i < n; i++) A[i * n + i] = 1;
  if (p === 0) return A;
  const w = Float64Array.from({ length: p }, (_, i) => u[i]);
  const base = arFromUnconstrained(w);
  for (let i = 0; i < p; i++) {
    w[i] += 1e-3;
    const moved = arFromUnconstrained(w);
    for (let j = 0; j < p; j++) A[i * n + j] = (moved[j] - base[j]) / 1e-3;
    w[i] -= 1e-3;
  }
  return A;
}
