import { InputError } from '@asof/schema';
import type { NumericArray } from './check-arrays.ts';
import { spearmanCorrelation } from './spearman-correlation.ts';

/**
 * FinVerse §3.2.2 eq. (10): IC_o^(p,h) = ρ_Spearman({r̂_{i,o}}_{i∈S_o}, {r_{i,o}}_{i∈S_o}) over the
 * cross-section S_o of assets at one origin o (ties by average rank). Higher is better, in [−1, 1].
 * NaN when |S_o| < 2 or either side is constant. The unit-level FinVerse IC is the mean of IC_o over origins
 * (see `meanInformationCoefficient`).
 */
export function informationCoefficient(predicted: NumericArray, realized: NumericArray): number {
  return spearmanCorrelation(predicted, realized);
}

/**
 * Mean of IC_o over the origins whose IC is defined (constant or single-asset cross-sections are skipped,
 * and counted in `undefinedOrigins` so the caller can see them). `predicted[o]` and `realized[o]` are the
 * cross-section at origin o, aligned by asset; non-finite entries mark assets absent from S_o.
 */
export function meanInformationCoefficient(
  predicted: readonly NumericArray[],
  realized: readonly NumericArray[],
): { value: number; origins: number; undefinedOrigins: number } {
  const ics = crossSectionalCorrelations(
    'meanInformationCoefficient',
    predicted,
    realized,
    spearmanCorrelation,
  );
  let sum = 0;
  let count = 0;
  for (const ic of ics) {
    if (Number.isFinite(ic)) {
      sum += ic;
      count++;
    }
  }
  return {
    value: count === 0 ? Number.NaN : sum / count,
    origins: count,
    undefinedOrigins: ics.length - count,
  };
}

/**
 * Applies `correlate` to each origin's cross-section restricted to assets where both sides are finite.
 * Returns one value per origin (NaN where undefined).
 */
export function crossSectionalCorrelations(
  metric: string,
  predicted: readonly NumericArray[],
  realized: readonly NumericArray[],
  correlate: (x: NumericArray, y: NumericArray) => number,
): Float64Array {
  if (predicted.length !== realized.length) {
    throw new InputError(
      'METRIC_LENGTH_MISMATCH',
      `${metric}: predicted has ${predicted.length} origins but realized has ${realized.length}; ` +
        'pass one cross-section per origin on both sides.',
      { context: { metric, actual: realized.length, expected: predicted.length } },
    );
  }
  const out = new Float64Array(predicted.length);
  for (let o = 0; o < predicted.length; o++) {
    const p = predicted[o];
    const r = realized[o];
    if (p.length !== r.length) {
      throw new InputError(
        'METRIC_LENGTH_MISMATCH',
        `${metric}: origin ${o} has ${p.length} predicted but ${r.length} realized values; align assets by index ` +
          '(NaN for an asset absent at that origin).',
        { context: { metric, origin: o, actual: r.length, expected: p.length } },
      );
    }
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = 0; i < p.length; i++) {
      if (Number.isFinite(p[i]) && Number.isFinite(r[i])) {
        xs.push(p[i]);
        ys.push(r[i]);
      }
    }
    out[o] = correlate(xs, ys);
  }
  return out;
}
