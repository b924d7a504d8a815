import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fftInPlace, fftPlan } from './fft.ts';
import { periodogram } from './periodogram.ts';

function naiveDft(re: Float64Array, im: Float64Array): [Float64Array, Float64Array] {
  const n = re.length;
  const outRe = new Float64Array(n);
  const outIm = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    let sr = 0;
    let si = 0;
    for (let t = 0; t < n; t++) {
      const ang = (-2 * Math.PI * ((k * t) % n)) / n;
      sr += re[t] * Math.cos(ang) - im[t] * Math.sin(ang);
      si += re[t] * Math.sin(ang) + im[t] * Math.cos(ang);
    }
    outRe[k] = sr;
    outIm[k] = si;
  }
  return [outRe, outIm];
}

// Deterministic pseudo-random input (no dependence on Math.random).
function series(n: number, seed: number): Float64Array {
  return new Float64Array(n).map((_, t) => (Math.sin(seed * 12.9898 + t * 78.233) * 43758.5453) % 1);
}

// Mixed-radix (powers of 2 and 4, 3·5·7 mixes, primes ≤ 61) and Bluestein (primes 67, 73, 101, 997;
// 365 = 5·73; 2·67) lengths.
const lengths = [
  1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 27, 30, 49, 60, 61, 64, 67, 73, 101, 125, 134, 210, 250, 365, 997,
];

describe('fftInPlace', () => {
  it.each(lengths)('matches a direct DFT for n = %i', (n) => {
    const re = series(n, 1);
    const im = series(n, 2);
    const [wantRe, wantIm] = naiveDft(re, im);
    fftInPlace(fftPlan(n), re, im);
    let scale = 0;
    for (let k = 0; k < n; k++) scale = Math.max(scale, Math.hypot(wantRe[k], wantIm[k]));
    for (let k = 0; k < n; k++) {
      expect(Math.abs(re[k] - wantRe[k])).toBeLessThan(1e-12 * scale);
      expect(Math.abs(im[k] - wantIm[k])).toBeLessThan(1e-12 * scale);
    }
  });
  // The bits, not just the values: segments.parquet (forecastability) must stay the same bytes when the
  // transform is reorganised for speed. Recorded from the recursive form (before 2026-12-02) — the same
  // butterflies in the same factor order give the same doubles; any change of the arithmetic shows here.
  // 7, 61, 122 = 2·61, 129 = 3·43, 247 = 13·19 and 259 = 7·37 take the generic butterfly (recorded from
  // its one-output-at-a-time form, before the pairs and the gathered DFT matrix).
  it.each([
    [7, '0fef4f603fcc62ad'],
    [61, '9148203c5501c778'],
    [122, '25ea071d2dbc3834'],
    [129, 'b75309d020faa052'],
    [247, '4ae9bada9413ebd9'],
    [259, 'ff324f3b5de43acc'],
    [60, '082fa2ed58e87c5a'],
    [249, '8265fabb8797da3b'],
    [250, 'a3f05f8d7fbac5a2'],
    [365, 'f3bc096b2f849dd1'],
    [512, '859f039c1dcd19eb'],
    [997, '759e600900881f08'],
  ])('gives the recorded doubles for n = %i', (n, sha) => {
    const re = series(n, 1);
    const im = series(n, 2);
    fftInPlace(fftPlan(n), re, im);
    const got = createHash('sha256')
      .update(new Uint8Array(re.buffer))
      .update(new Uint8Array(im.buffer))
      .digest('hex')
      .slice(0, 16);
    expect(got).toBe(sha);
  });
});

describe('periodogram', () => {
  it.each([2, 3, 4, 9, 10, 60, 130, 146, 250, 251, 365, 730])('equals |DFT|² for real input, n = %i', (n) => {
    const x = series(n, 3);
    const [wantRe, wantIm] = naiveDft(x, new Float64Array(n));
    const out = new Float64Array((n >> 1) + 1);
    periodogram(x, out);
    let scale = 0;
    for (let k = 0; k <= n >> 1; k++) scale = Math.max(scale, wantRe[k] ** 2 + wantIm[k] ** 2);
    for (let k = 0; k <= n >> 1; k++) {
      expect(Math.abs(out[k] - (wantRe[k] ** 2 + wantIm[k] ** 2))).toBeLessThan(1e-11 * scale);
    }
  });
});
