/** Observation rows of one series: timestamp, available_at (epoch ms) and value, in any order. */
export interface HistoryColumns {
  ts: number[];
  av: number[];
  value: number[];
}

/** The drift baseline's y_1 at one origin. */
export interface WholeHistory {
  /** y_1: the first value of the as-of view at the origin whose grid step is known (NaN when none is). */
  first: number;
  /** y_1's grid step (NaN when none). */
  firstStep: number;
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
 * snapshot's first, unless it was withdrawn. packages/split's driftForecaster applies the same rule to the
 * same rows.
 */
export function wholeHistoryAt(
  rows: HistoryColumns,
  stepOf: (ts: number) => number,
  origins: readonly number[],
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
  return origins.map((origin) => {
    let first = Number.NaN;
    let firstStep = Number.NaN;
    for (let g = 0; g < groupTs.length && groupTs[g] <= origin; g++) {
      if (Number.isNaN(groupStep[g])) continue;
      const v = valueAt(g, origin);
      if (Number.isNaN(v)) continue;
      first = v;
      firstStep = groupStep[g];
      break;
    }
    return { first, firstStep };
  });
}
