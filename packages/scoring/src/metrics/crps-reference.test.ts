import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { crpsGaussian } from './crps-gaussian.ts';
import { crpsSamples } from './crps-samples.ts';

// Produced once in R by reference/make-reference.R: the fair CRPS by its O(m²) double-sum definition
// (independent of our sorted-sample identity) and the Gaussian closed form from R's pnorm/dnorm.
const reference = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../reference/crps-reference.json', import.meta.url)), 'utf8'),
) as {
  samples: { samples: number[]; outcome: number; crps_fair: number }[];
  gaussian: { mu: number; sigma: number; outcome: number; crps: number }[];
};

describe('CRPS vs R reference values', () => {
  it('crpsSamples equals the fair double-sum definition', () => {
    expect(reference.samples.length).toBeGreaterThanOrEqual(4);
    for (const c of reference.samples) {
      expect(Math.abs(crpsSamples(c.samples, c.outcome) - c.crps_fair)).toBeLessThan(1e-14);
    }
  });
  it('crpsGaussian equals the closed form computed with R pnorm/dnorm', () => {
    for (const c of reference.gaussian) {
      expect(Math.abs(crpsGaussian(c.mu, c.sigma, c.outcome) - c.crps)).toBeLessThanOrEqual(1e-13 * c.crps);
    }
  });
});
