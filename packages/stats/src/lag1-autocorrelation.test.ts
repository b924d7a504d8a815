import { describe, expect, it } from 'vitest';
import { lag1Autocorrelation } from './lag1-autocorrelation.ts';
import { readReferenceVectors } from './reference-vectors.ts';

const { vectors } = readReferenceVectors();

describe('lag1Autocorrelation against statsmodels acf', () => {
  it.each(vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    const got = lag1Autocorrelation(Float64Array.from(v.x));
    expect(Math.abs(got - v.acf1) / Math.abs(v.acf1)).toBeLessThan(1e-6);
  });

  it('uses the biased (1/n, full-sample variance) estimator of FinTSB eq. 2', () => {
    // x = 1,2,4: mean 7/3, deviations −4/3, −1/3, 5/3; numerator (−1/3)(−4/3) + (5/3)(−1/3) = −1/9,
    // denominator over all n terms 42/9 (an unbiased/n−k estimator would give a different value).
    expect(lag1Autocorrelation(new Float64Array([1, 2, 4]))).toBeCloseTo(-1 / 42, 15);
  });

  it('is NaN for constant or single-value input', () => {
    expect(lag1Autocorrelation(new Float64Array([3, 3, 3]))).toBeNaN();
    expect(lag1Autocorrelation(new Float64Array([3]))).toBeNaN();
  });
});
