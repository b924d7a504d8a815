/** Observation rows of one series: timestamp, available_at (epoch ms) and value, in any order. */
export interface HistoryColumns {
  ts: number[];
  av: number[];
  value: number[];
}

/** What the drift baseline needs of the whole history known at an origin. */
export interface WholeHistory {
  /** y_1: the value of the first timestamp of the as-of view at the origin (NaN when it is empty). */
  first: number;
  /** n: the number of timestamps of the as-of view at the origin. */
  length: number;
}

/**
 * The whole history of one series known at each origin (ascending epoch ms): the as-of view at the origin
 * (per timestamp <= origin, the vintage with the greatest available_at <= origin) summarised as its first
 * value and its length — the same view HistoryStore.historyAt serves (packages/split), computed here without
 * depending on it. A vintage without a finite value is a withdrawal (docs/decisions/0007-withdrawal-rows.md):
 * while it is the latest public vintage, its timestamp is left out. Only rows the caller passes are seen:
 * for a split, the training snapshot and every origin's inputs, i.e. what the split serves.
 */
export function wholeHistoryAt(rows: HistoryColumns, origins: readonly number[]): WholeHistory[] {
  const order = Array.from(rows.ts, (_, i) => i);
  order.sort((a, b) => rows.ts[a] - rows.ts[b] || rows.av[a] - rows.av[b]);
  // One group per timestamp, with the instant it first becomes visible: max(timestamp, first available_at).
  const groupStart: number[] = [];
  const visibleAt: number[] = [];
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    if (k === 0 || rows.ts[order[k - 1]] !== rows.ts[i]) {
      groupStart.push(k);
      visibleAt.push(Math.max(rows.ts[i], rows.av[i]));
    }
  }
  groupStart.push(order.length);
  /** The latest vintage of group g public at o (NaN for a withdrawal), or undefined when none is. */
  const latestAt = (g: number, o: number): number | undefined => {
    let v: number | undefined;
    for (let k = groupStart[g]; k < groupStart[g + 1] && rows.av[order[k]] <= o; k++)
      v = rows.value[order[k]];
    return v;
  };
  const hasWithdrawals = rows.value.some((v) => !Number.isFinite(v));
  if (hasWithdrawals) {
    return origins.map((o) => {
      let first = Number.NaN;
      let length = 0;
      for (let g = 0; g < visibleAt.length && rows.ts[order[groupStart[g]]] <= o; g++) {
        const v = visibleAt[g] <= o ? latestAt(g, o) : undefined;
        if (v === undefined || !Number.isFinite(v)) continue;
        if (length === 0) first = v;
        length++;
      }
      return { first, length };
    });
  }
  const visibleSorted = Float64Array.from(visibleAt).sort();
  return origins.map((o) => {
    // Timestamps visible at o: both conditions are monotone in o, so a binary search counts them.
    let lo = 0;
    let hi = visibleSorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (visibleSorted[mid] <= o) lo = mid + 1;
      else hi = mid;
    }
    let first = Number.NaN;
    for (let g = 0; g < visibleAt.length && lo > 0; g++) {
      if (visibleAt[g] > o) continue;
      first = latestAt(g, o)!;
      break;
    }
    return { first, length: lo };
  });
}
