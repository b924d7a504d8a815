import type { NumericArray } from './check-arrays.ts';
import { nearlyEqual } from './float-tolerance.ts';

/**
 * 1-based ranks in ascending order, ties sharing the average of the positions they span
 * (e.g. [10, 20, 20, 30] → [1, 2.5, 2.5, 4]), as scipy.stats.rankdata(method='average') and pandas
 * rank(method='average'). Values equal up to rounding (nearlyEqual to the first of their run in sorted
 * order) are ties, so returns computed from nearby prices in different ways rank as the equal values they
 * are. Values must be finite (callers filter first).
 */
export function averageRanks(values: NumericArray): Float64Array {
  const n = values.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => values[a] - values[b]);
  const ranks = new Float64Array(n);
  let i = 0;
  while (i < n) {
    let j = i + 1;
    const v = values[order[i]];
    while (j < n && nearlyEqual(values[order[j]], v)) j++;
    // positions i..j−1 (0-based) share rank mean(i+1..j) = (i + 1 + j) / 2
    const r = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) ranks[order[k]] = r;
    i = j;
  }
  return ranks;
}
