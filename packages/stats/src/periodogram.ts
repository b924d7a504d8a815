import { fftInPlace, fftPlan } from './fft.ts';

let packRe = new Float64Array(0);
let packIm = new Float64Array(0);
/** e^{−2πik/n}, k ≤ n/2, for the even-length untangling step, cached per n. */
const untangleTwiddles = new Map<number, { re: Float64Array; im: Float64Array }>();

function untangleTwiddle(n: number): { re: Float64Array; im: Float64Array } {
  let t = untangleTwiddles.get(n);
  if (!t) {
    const half = n >> 1;
    t = { re: new Float64Array(half + 1), im: new Float64Array(half + 1) };
    for (let k = 0; k <= half; k++) {
      t.re[k] = Math.cos((-2 * Math.PI * k) / n);
      t.im[k] = Math.sin((-2 * Math.PI * k) / n);
    }
    untangleTwiddles.set(n, t);
  }
  return t;
}

/**
 * Raw periodogram |X_k|² (unscaled, untapered) at k = 0 … ⌊n/2⌋ of real x, written into `out`
 * (length ≥ ⌊n/2⌋ + 1). Even n packs x into a complex series of n/2 points (even samples real, odd
 * samples imaginary) and untangles the halves afterwards, halving the transform length.
 */
export function periodogram(x: Float64Array, out: Float64Array): void {
  const n = x.length;
  if (n === 0) return;
  const half = n >> 1;
  if (n % 2 === 1 || n === 2) {
    if (packRe.length < n) {
      packRe = new Float64Array(n);
      packIm = new Float64Array(n);
    }
    const re = packRe.subarray(0, n);
    const im = packIm.subarray(0, n);
    re.set(x);
    im.fill(0);
    fftInPlace(fftPlan(n), re, im);
    for (let k = 0; k <= half; k++) out[k] = re[k] * re[k] + im[k] * im[k];
    return;
  }
  if (packRe.length < half) {
    packRe = new Float64Array(half);
    packIm = new Float64Array(half);
  }
  const re = packRe.subarray(0, half);
  const im = packIm.subarray(0, half);
  for (let j = 0; j < half; j++) {
    re[j] = x[2 * j];
    im[j] = x[2 * j + 1];
  }
  fftInPlace(fftPlan(half), re, im);
  const tw = untangleTwiddle(n);
  // With Z = FFT(z), z_j = x_{2j} + i·x_{2j+1}: E_k = (Z_k + conj Z_{h−k})/2 (even samples),
  // O_k = (Z_k − conj Z_{h−k})/(2i) (odd samples), X_k = E_k + e^{−2πik/n}·O_k, Z_h ≡ Z_0.
  for (let k = 0; k <= half; k++) {
    const a = k === half ? 0 : k;
    const b = k === 0 ? 0 : half - k;
    const zr = re[a];
    const zi = im[a];
    const cr = re[b];
    const ci = -im[b];
    const er = (zr + cr) / 2;
    const ei = (zi + ci) / 2;
    // (z − c)/(2i) = (zi − ci)/2 − i·(zr − cr)/2
    const or = (zi - ci) / 2;
    const oi = -(zr - cr) / 2;
    const wr = tw.re[k];
    const wi = tw.im[k];
    const xr = er + or * wr - oi * wi;
    const xi = ei + or * wi + oi * wr;
    out[k] = xr * xr + xi * xi;
  }
}
