import { InputError } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { adfStatistic, adfStatisticWith } from './adf-statistic.ts';
import { readReferenceVectors } from './reference-vectors.ts';

const { vectors } = readReferenceVectors();
const withAdf = vectors.filter((v) => v.adf !== undefined);

describe('adfStatistic against statsmodels adfuller', () => {
  it('has enough reference vectors, including every option combination', () => {
    expect(withAdf.length).toBeGreaterThanOrEqual(20);
    expect(withAdf.some((v) => v.adf?.regression === 'c')).toBe(true);
    expect(withAdf.some((v) => v.adf?.autolag === null)).toBe(true);
    expect(withAdf.some((v) => v.adf?.maxlag !== null)).toBe(true);
    expect(withAdf.some((v) => (v.adf?.usedLag ?? 0) > 0)).toBe(true);
  });

  it.each(withAdf.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    const ref = v.adf;
    if (!ref) throw new Error('filtered above');
    const got = adfStatistic(Float64Array.from(v.x), {
      regression: ref.regression,
      autolag: ref.autolag,
      ...(ref.maxlag === null ? {} : { maxLag: ref.maxlag }),
    });
    expect(got.usedLag).toBe(ref.usedLag);
    expect(got.nobs).toBe(ref.nobs);
    expect(Math.abs(got.stat - ref.stat) / Math.abs(ref.stat)).toBeLessThan(1e-6);
  });
});

describe('adfStatistic factorisations', () => {
  const optionsOf = (v: (typeof withAdf)[number]) => {
    const ref = v.adf;
    if (!ref) throw new Error('filtered above');
    return {
      regression: ref.regression,
      autolag: ref.autolag,
      ...(ref.maxlag === null ? {} : { maxLag: ref.maxlag }),
    };
  };

  it.each(withAdf.map((v) => [v.name, v] as const))(
    'Householder-only path also matches statsmodels: %s',
    (_name, v) => {
      const ref = v.adf;
      if (!ref) throw new Error('filtered above');
      const got = adfStatisticWith(Float64Array.from(v.x), optionsOf(v), 'qr');
      expect(got.usedLag).toBe(ref.usedLag);
      expect(Math.abs(got.stat - ref.stat) / Math.abs(ref.stat)).toBeLessThan(1e-6);
    },
  );

  it('hands an ill-conditioned design (level collinear with the trend) to Householder QR', () => {
    const v = withAdf.find((w) => w.name.startsWith('near-deterministic trend'));
    if (!v) throw new Error('reference file lacks the near-deterministic trend vector');
    const x = Float64Array.from(v.x);
    // Identical to the last bit only if 'auto' took the QR fallback for both fits.
    expect(adfStatisticWith(x, optionsOf(v), 'auto')).toEqual(adfStatisticWith(x, optionsOf(v), 'qr'));
  });

  it('uses the Gram path on well-conditioned data (results differ from QR in the last bits only)', () => {
    const v = withAdf.find((w) => w.name.startsWith('sine period'));
    if (!v) throw new Error('reference file lacks the sine vector');
    const x = Float64Array.from(v.x);
    const auto = adfStatisticWith(x, optionsOf(v), 'auto');
    const qr = adfStatisticWith(x, optionsOf(v), 'qr');
    expect(auto.stat).not.toBe(qr.stat);
    expect(Math.abs(auto.stat - qr.stat) / Math.abs(qr.stat)).toBeLessThan(1e-10);
  });
});

describe('adfStatistic edge cases', () => {
  it('defaults to regression ct with AIC lag selection', () => {
    const v = withAdf.find(
      (w) => w.adf?.regression === 'ct' && w.adf.autolag === 'AIC' && w.adf.maxlag === null,
    );
    if (!v?.adf) throw new Error('reference file lacks a default-options vector');
    expect(adfStatistic(Float64Array.from(v.x)).stat).toBeCloseTo(v.adf.stat, 8);
  });

  it('returns NaN for a constant series instead of a meaningless t statistic', () => {
    expect(adfStatistic(new Float64Array(100).fill(0.01)).stat).toBeNaN();
  });

  it('rejects non-finite values, naming the index', () => {
    const x = new Float64Array(100).map((_, i) => Math.sin(i));
    x[42] = Number.NaN;
    expect(() => adfStatistic(x)).toThrow(/x\[42\] is NaN/);
    expect(() => adfStatistic(x)).toThrow(InputError);
  });

  it('rejects series too short for the regression and out-of-range maxLag', () => {
    expect(() => adfStatistic(new Float64Array([1, 2, 3, 5, 4]))).toThrow(/too short/);
    expect(() => adfStatistic(new Float64Array(100).map(Math.sin), { maxLag: 48 })).toThrow(/maxLag is 48/);
    expect(() => adfStatistic(new Float64Array(100).map(Math.sin), { maxLag: 1.5 })).toThrow(InputError);
  });

  it('gives the same answer on repeated calls of different lengths (scratch buffers are reset)', () => {
    const [a, b] = withAdf;
    const first = adfStatistic(Float64Array.from(a.x));
    adfStatistic(Float64Array.from(b.x));
    expect(adfStatistic(Float64Array.from(a.x))).toEqual(first);
  });
});
