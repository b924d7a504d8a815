import { describe, expect, it } from 'vitest';
import { forecastability } from './forecastability.ts';
import { readReferenceVectors } from './reference-vectors.ts';

const { vectors } = readReferenceVectors();

describe('forecastability against numpy rfft', () => {
  it('covers power-of-two, even and odd lengths', () => {
    const lengths = vectors.map((v) => v.x.length);
    expect(lengths.some((n) => (n & (n - 1)) === 0)).toBe(true);
    expect(lengths.some((n) => n % 2 === 1)).toBe(true);
    expect(lengths.some((n) => n % 2 === 0 && (n & (n - 1)) !== 0)).toBe(true);
  });

  it.each(vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    expect(Math.abs(forecastability(Float64Array.from(v.x)) - v.forecastability)).toBeLessThan(1e-9);
  });
});

describe('forecastability definition', () => {
  it('is 1 for a sinusoid on a Fourier frequency and ~0 for a flat spectrum', () => {
    const n = 250;
    const sine = new Float64Array(n).map((_, t) => Math.cos((2 * Math.PI * 10 * t) / n));
    expect(forecastability(sine)).toBeCloseTo(1, 12);
    // A unit impulse has |X_k|² = 1 at every frequency: maximal entropy.
    const impulse = new Float64Array(n);
    impulse[0] = 1;
    expect(forecastability(impulse)).toBeCloseTo(0, 12);
  });

  it('ignores the mean (DC excluded) and is scale invariant', () => {
    const x = Float64Array.from(vectors[0].x);
    const shifted = x.map((v) => 1000 + 3 * v);
    expect(forecastability(shifted)).toBeCloseTo(forecastability(x), 10);
  });

  it('is NaN for constant or too-short input', () => {
    expect(forecastability(new Float64Array(50).fill(2))).toBeNaN();
    expect(forecastability(new Float64Array([1, 2, 3]))).toBeNaN();
  });
});
