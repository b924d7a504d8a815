/** Observation rows of one series: timestamp, available_at (epoch ms) and value, in any order. */
export interface HistoryColumns {
  ts: number[];
  av: number[];
  value: number[];
}

/** What one origin asks of the whole history served as of it. */
export interface WholeHistoryQuery {
  /** The origin (epoch ms): the history is the as-of view at it. */
  origin: number;
  /** The history tail's first timestamp (epoch ms): `before` holds earlier timestamps only. */
  tailStart: number;
  /** The grid step of the tail's first value: a return joins it to the last of `before` when adjacent. */
  tailStartStep: number;
  /** One-step returns `before` should add to the tail's (the volatility window's remainder); ≤ 0: none. */
  returns: number;
}

/** The drift baseline's y_1 and the random walk's volatility window beyond the tail, at one origin. */
export interface WholeHistory {
  /** y_1: the first value of the as-of view at the origin whose grid step is known (NaN when none is). */
  first: number;
  /** y_1's grid step (NaN when none). */
  firstStep: number;
  /**
   * Values of the as-of view before the tail with a known grid step, oldest first, walking back from the
   * tail until they bring `returns` one-step returns (between adjacent steps) or the history ends.
   */
  before: number[];
  beforeSteps: number[];
}

/**
 * The whole history of one series served as of each origin: the as-of view at the origin (per timestamp
 * <= origin, the vintage with the greatest available_at <= origin) — the same view HistoryStore.historyAt
 * serves (packages/split), computed here without depending on it. A vintage without a finite value is a
 * withdrawal (docs/decisions/0007-withdrawal-rows.md): while it is the latest public vintage, its timestamp
 * is left out. Only rows the caller passes are seen: for a split, the training snapshot and every origin's
 * inputs, i.e. what the split serves, with holes where it serves nothing (the README split serves nothing
 * of 2020 for monthly series). So positions are grid steps (`stepOf(ts)`: the split's step_index, NaN when
 * the split does not give it), never row counts: y_1 is the first value whose step is known — the training
 * snapshot's first, unless it was withdrawn — and the volatility window takes returns between adjacent
 * steps only. packages/split's driftForecaster applies the same rule to the same rows.
 */
export function wholeHistoryAt(
  rows: HistoryColumns,
  stepOf: (ts: number) => number,
  queries: readonly WholeHistoryQuery[],
): WholeHistory[] {
  const order = Array.from(rows.ts, (_, i) => i);
  order.sort((a, b) => rows.ts[a] - rows.ts[b] || rows.av[a] - rows.av[b]);
  // One group per timestamp, with the instant it first becomes visible (max(timestamp, first available_at))
  // and its grid step.
  const groupStart: number[] = [];
  const groupTs: number[] = [];
  const visibleAt: number[] = [];
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    if (k === 0 || rows.ts[order[k - 1]] !== rows.ts[i]) {
      groupStart.push(k);
      groupTs.push(rows.ts[i]);
      visibleAt.push(Math.max(rows.ts[i], rows.av[i]));
    }
  }
  groupStart.push(order.length);
  const groupStep = groupTs.map(stepOf);
  /** The latest vintage of group g public at o (NaN for a withdrawal), or NaN when none is. */
  const valueAt = (g: number, o: number): number => {
    if (!(visibleAt[g] <= o)) return Number.NaN;
    let v = Number.NaN;
    for (let k = groupStart[g]; k < groupStart[g + 1] && rows.av[order[k]] <= o; k++)
      v = rows.value[order[k]];
    return v;
  };
  return queries.map((q) => {
    let first = Number.NaN;
    let firstStep = Number.NaN;
    for (let g = 0; g < groupTs.length && groupTs[g] <= q.origin; g++) {
      if (Number.isNaN(groupStep[g])) continue;
      const v = valueAt(g, q.origin);
      if (Number.isNaN(v)) continue;
      first = v;
      firstStep = groupStep[g];
      break;
    }
    const before: number[] = [];
    const beforeSteps: number[] = [];
    if (q.returns > 0) {
      // The last group before the tail, then back in time.
      let lo = 0;
      let hi = groupTs.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (groupTs[mid] < q.tailStart) lo = mid + 1;
        else hi = mid;
      }
      let found = 0;
      let next = q.tailStartStep;
      for (let g = lo - 1; g >= 0 && found < q.returns; g--) {
        if (Number.isNaN(groupStep[g])) continue;
        const v = valueAt(g, q.origin);
        if (Number.isNaN(v)) continue;
        before.push(v);
        beforeSteps.push(groupStep[g]);
        if (next - groupStep[g] === 1) found++;
        next = groupStep[g];
      }
      before.reverse();
      beforeSteps.reverse();
    }
    return { first, firstStep, before, beforeSteps };
  });
}
