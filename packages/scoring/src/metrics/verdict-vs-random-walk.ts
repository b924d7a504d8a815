import type { DieboldMarianoResult } from './diebold-mariano.ts';

export type Verdict = 'beats' | 'indistinguishable' | 'worse';

/**
 * Tycheon methodology: a model "beats the random walk" only if both one-sided DM tests (squared error and
 * CRPS, model vs random walk) have p < 0.05, is "worse" only if both show it worse at that level, and is
 * otherwise "indistinguishable". A NaN p-value (zero-variance differential) never counts as significant.
 */
export function verdictVsRandomWalk(
  squaredError: Pick<DieboldMarianoResult, 'pModelBetter' | 'pModelWorse'>,
  crps: Pick<DieboldMarianoResult, 'pModelBetter' | 'pModelWorse'>,
  alpha = 0.05,
): Verdict {
  if (squaredError.pModelBetter < alpha && crps.pModelBetter < alpha) return 'beats';
  if (squaredError.pModelWorse < alpha && crps.pModelWorse < alpha) return 'worse';
  return 'indistinguishable';
}
