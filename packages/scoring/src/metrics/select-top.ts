import type { NumericArray } from './check-arrays.ts';

/**
 * Indices of the `count` largest finite `scores` among `eligible` assets, best first. Ties are broken by the
 * lower asset index so that selections are deterministic (none of the seeds specifies tie handling).
 */
export function selectTop(scores: NumericArray, eligible: readonly number[], count: number): number[] {
  const sorted = [...eligible].sort((a, b) => scores[b] - scores[a] || a - b);
  return sorted.slice(0, Math.max(0, count));
}
