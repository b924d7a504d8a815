const SQRT2 = Math.SQRT2;
const EPS = 1e-16;

/** Standard normal CDF Φ(z), via erfc computed from the regularized incomplete gamma Q(½, z²/2) (≈1e-15). */
export function normalCdf(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  const x = Math.abs(z) / SQRT2;
  const upperHalf = 0.5 * erfcNonNegative(x); // P(Z > |z|)
  return z >= 0 ? 1 - upperHalf : upperHalf;
}

/** Standard normal density φ(z). */
export function normalPdf(z: number): number {
  return Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
}

// erfc(x) = Q(½, x²) for x ≥ 0, Numerical Recipes §6.2 (series below a+1, continued fraction above).
function erfcNonNegative(x: number): number {
  const a = 0.5;
  const v = x * x;
  if (v === 0) return 1;
  const gln = 0.5 * Math.log(Math.PI); // ln Γ(½)
  if (v < a + 1) {
    let ap = a;
    let del = 1 / a;
    let sum = del;
    for (let n = 0; n < 1000; n++) {
      ap += 1;
      del *= v / ap;
      sum += del;
      if (Math.abs(del) < Math.abs(sum) * EPS) break;
    }
    return 1 - sum * Math.exp(-v + a * Math.log(v) - gln);
  }
  let b = v + 1 - a;
  let c = 1 / 1e-300;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < 1e-300) d = 1e-300;
    c = b + an / c;
    if (Math.abs(c) < 1e-300) c = 1e-300;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return Math.exp(-v + a * Math.log(v) - gln) * h;
}
