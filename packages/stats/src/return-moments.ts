/**
 * The mean and sample standard deviation of a segment's returns, taken in the order given, with the
 * floating-point operations of DuckDB's `avg(DOUBLE)` (a running sum, divided by the count at the end) and
 * `stddev_samp` (Welford's update per value, then √(M2 / (n − 1))). Fed the returns in step order, they
 * are the numbers DuckDB's aggregates give over the same returns in step order, bit for bit: segment_stats
 * reads them from here instead of aggregating (docs/decisions/0031, 0035).
 * The standard deviation is NaN below two values, where stddev_samp is NULL.
 */
export function returnMoments(x: Float64Array): { mean: number; std: number } {
  const n = x.length;
  let sum = 0;
  let count = 0;
  let mean = 0;
  let m2 = 0;
  for (let i = 0; i < n; i++) {
    const v = x[i];
    sum += v;
    count++;
    // DuckDB's STDDevBaseOperation, in its order of operations.
    const meanDifferential = (v - mean) / count;
    const newMean = mean + meanDifferential;
    m2 += (v - newMean) * (v - mean);
    mean = newMean;
  }
  return { mean: sum / n, std: n > 1 ? Math.sqrt(m2 / (n - 1)) : Number.NaN };
}
