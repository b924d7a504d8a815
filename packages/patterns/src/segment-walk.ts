/**
 * One segment's rows as segment_placed.sql leaves them, gathered by a GROUP BY: three parallel arrays
 * of the same length, in no particular order. NULL values arrive as NaN (streamNumberLists).
 */
export interface PlacedRows {
  steps: ArrayLike<number>;
  micros: ArrayLike<number>;
  values: ArrayLike<number>;
}

/** What segment_counts needs of a segment; first/last are epoch microseconds. */
export interface SegmentTally {
  nSteps: number;
  nReturns: number;
  nPositive: number;
  minValue: number;
  firstMicros: number;
  lastMicros: number;
}

/**
 * Walks one segment's rows in (step, timestamp) order and applies segment_steps.sql's rule, the same
 * numbers by the same floating-point operations: of several rows on one step the latest counts, and
 * each counted step's return is against the row before it, or the one before that when the row before
 * shares its step (exact for up to two rows per step, as the model); ratios, or differences when any of
 * the segment's values is ≤ 0. Writes each return and its step into `returns`/`returnSteps` from `at`
 * and returns the segment's tally. NaN stands for NULL, as in SQL: a NULL value has no return and no
 * minimum. (A true NaN value, which no source writes, would be taken as NULL.)
 */
export function walkSegment(
  rows: PlacedRows,
  returns: Float64Array,
  returnSteps: Int32Array,
  at: number,
): SegmentTally {
  const { steps, micros, values } = rows;
  const n = steps.length;
  const order = orderOf(rows);
  const step = (p: number) => steps[order ? order[p] : p];
  const value = (p: number) => values[order ? order[p] : p];
  let minAll = Number.NaN;
  for (let p = 0; p < n; p++) {
    const v = value(p);
    if (!Number.isNaN(v) && !(v >= minAll)) minAll = v;
  }
  const differences = minAll <= 0;
  const tally: SegmentTally = {
    nSteps: 0,
    nReturns: 0,
    nPositive: 0,
    minValue: Number.NaN,
    firstMicros: Number.POSITIVE_INFINITY,
    lastMicros: Number.NEGATIVE_INFINITY,
  };
  let out = at;
  for (let p = 0; p < n; p++) {
    const s = step(p);
    if (p + 1 < n && step(p + 1) === s) continue;
    const v = value(p);
    const prev =
      p === 0 ? Number.NaN : step(p - 1) === s ? (p >= 2 ? value(p - 2) : Number.NaN) : value(p - 1);
    const t = micros[order ? order[p] : p];
    tally.nSteps++;
    if (!Number.isNaN(v) && !(v >= tally.minValue)) tally.minValue = v;
    if (t < tally.firstMicros) tally.firstMicros = t;
    if (t > tally.lastMicros) tally.lastMicros = t;
    const ret = differences ? v - prev : v / prev - 1;
    if (Number.isNaN(prev) || Number.isNaN(v)) continue;
    tally.nReturns++;
    if (ret > 0) tally.nPositive++;
    returns[out] = ret;
    returnSteps[out] = s;
    out++;
  }
  return tally;
}

/** null when the rows are already in (step, timestamp) order (almost always), else the order to read them in. */
function orderOf({ steps, micros }: PlacedRows): number[] | null {
  const n = steps.length;
  let sorted = true;
  for (let j = 1; j < n; j++) {
    if (steps[j] < steps[j - 1] || (steps[j] === steps[j - 1] && micros[j] < micros[j - 1])) {
      sorted = false;
      break;
    }
  }
  if (sorted) return null;
  return Array.from({ length: n }, (_, j) => j).sort((a, b) => steps[a] - steps[b] || micros[a] - micros[b]);
}
