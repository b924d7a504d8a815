import { InputError } from '@asof/schema';
import { checkArrays, type NumericArray } from './check-arrays.ts';

/**
 * Fair (ensemble-size-independent) CRPS of m ≥ 2 samples x_1..x_m against the outcome y (Tycheon "CRPS:
 * fair estimate from sample paths"; Ferro 2014, Zamo & Naveau 2018):
 *   CRPS_fair = (1/m) Σ_i |x_i − y| − 1/(2m(m−1)) Σ_i Σ_j |x_i − x_j|.
 * It is unbiased for the CRPS of the distribution the samples are drawn from (the plain estimator divides
 * the second term by 2m² and overstates CRPS by about E|X−X'|/(2m)). It can be slightly negative for tiny m.
 * O(m log m): Σ_i Σ_j |x_i − x_j| = 2 Σ_k (2k − m − 1) x_(k) over the sorted samples. Lower is better.
 */
export function crpsSamples(samples: NumericArray, outcome: number): number {
  checkArrays('crpsSamples', { samples });
  checkArrays('crpsSamples', { outcome: [outcome] });
  const m = samples.length;
  if (m < 2) {
    throw new InputError(
      'METRIC_TOO_FEW_SAMPLES',
      `crpsSamples: ${m} sample(s), expected at least 2 (the fair estimator divides by m(m − 1)).`,
      { context: { samples: m } },
    );
  }
  const sorted = Float64Array.from(samples).sort();
  let absToOutcome = 0;
  let weighted = 0;
  for (let k = 0; k < m; k++) {
    const x = sorted[k];
    absToOutcome += Math.abs(x - outcome);
    weighted += (2 * (k + 1) - m - 1) * x; // 1-based k in the formula
  }
  // Σ_i Σ_j |x_i − x_j| = 2·weighted, so the spread term is 2·weighted / (2m(m−1)).
  return absToOutcome / m - weighted / (m * (m - 1));
}
