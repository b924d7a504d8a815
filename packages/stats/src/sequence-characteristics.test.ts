import { describe, expect, it } from 'vitest';
import { readReferenceVectors } from './reference-vectors.ts';
import { sequenceCharacteristics } from './sequence-characteristics.ts';

const { vectors } = readReferenceVectors();

describe('sequenceCharacteristics', () => {
  it('matches the reference for every default-option (ct, AIC) vector', () => {
    const defaults = vectors.filter(
      (v) => v.adf?.regression === 'ct' && v.adf.autolag === 'AIC' && v.adf.maxlag === null,
    );
    expect(defaults.length).toBeGreaterThanOrEqual(15);
    for (const v of defaults) {
      const got = sequenceCharacteristics(Float64Array.from(v.x));
      const ref = v.adf;
      if (!ref) throw new Error('filtered above');
      expect(got.adfUsedLag, v.name).toBe(ref.usedLag);
      expect(got.adfNobs, v.name).toBe(ref.nobs);
      expect(Math.abs(got.adfStat - ref.stat) / Math.abs(ref.stat), v.name).toBeLessThan(1e-6);
      expect(Math.abs(got.acf1 - v.acf1) / Math.abs(v.acf1), v.name).toBeLessThan(1e-6);
      expect(Math.abs(got.forecastability - v.forecastability), v.name).toBeLessThan(1e-9);
    }
  });
});

describe('sequenceCharacteristics on degenerate segments', () => {
  it('reports NaN for a constant (suspended) segment instead of throwing', () => {
    const got = sequenceCharacteristics(new Float64Array(250));
    expect(got.adfStat).toBeNaN();
    expect(got.acf1).toBeNaN();
    expect(got.forecastability).toBeNaN();
  });
});
