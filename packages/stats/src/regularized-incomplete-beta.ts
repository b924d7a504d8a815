import { InputError } from '@asof/schema';
import { logGamma } from './log-gamma.ts';

const EPS = 1e-16;
const TINY = 1e-300;
// The continued fraction needs O(√max(a,b)) terms; 1e5 covers a, b up to ~1e9 (DM tests on pooled origins).
const MAX_ITER = 100_000;

/**
 * I_x(a, b), the regularized incomplete beta function, by the continued fraction of Numerical Recipes §6.4
 * (modified Lentz), using the symmetry I_x(a,b) = 1 − I_{1−x}(b,a) where the fraction converges faster.
 */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0) || !(x >= 0 && x <= 1)) {
    throw new InputError(
      'METRIC_BAD_PARAMETER',
      `regularizedIncompleteBeta: need 0 ≤ x ≤ 1 and a, b > 0, got x=${x}, a=${a}, b=${b}.`,
      { context: { x, a, b } },
    );
  }
  if (x === 0) return 0;
  if (x === 1) return 1;
  const logFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(logFront) * betaContinuedFraction(x, a, b)) / a;
  return 1 - (Math.exp(logFront) * betaContinuedFraction(1 - x, b, a)) / b;
}

function betaContinuedFraction(x: number, a: number, b: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= MAX_ITER; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) return h;
  }
  throw new InputError(
    'METRIC_NO_CONVERGENCE',
    `regularizedIncompleteBeta: continued fraction did not converge in ${MAX_ITER} terms for x=${x}, a=${a}, b=${b}.`,
    { context: { x, a, b } },
  );
}
