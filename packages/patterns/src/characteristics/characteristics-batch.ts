import { returnMoments, sequenceCharacteristics } from '@asof/stats';

/**
 * Numbers per segment in a batch's result: adfStat, adfUsedLag, adfNobs, acf1, forecastability, and the
 * returns' mean and sample standard deviation (segment_stats reads those two, docs/decisions/0031).
 */
export const CHARACTERISTICS_WIDTH = 7;

/**
 * Segments' returns back to back: segment i is values[offsets[i] … offsets[i + 1]). Transferable as is
 * to a worker thread (two ArrayBuffers, no copy).
 */
export interface SegmentBatch {
  offsets: Int32Array<ArrayBuffer>;
  values: Float64Array<ArrayBuffer>;
}

/** The SPEC §7 characteristics and return moments of every segment of `batch`, CHARACTERISTICS_WIDTH numbers each. */
export function characteristicsOfBatch(batch: SegmentBatch): Float64Array<ArrayBuffer> {
  const n = batch.offsets.length - 1;
  const out = new Float64Array(n * CHARACTERISTICS_WIDTH);
  for (let i = 0; i < n; i++) {
    const returns = batch.values.subarray(batch.offsets[i], batch.offsets[i + 1]);
    const c = sequenceCharacteristics(returns);
    const m = returnMoments(returns);
    const o = i * CHARACTERISTICS_WIDTH;
    out[o] = c.adfStat;
    out[o + 1] = c.adfUsedLag;
    out[o + 2] = c.adfNobs;
    out[o + 3] = c.acf1;
    out[o + 4] = c.forecastability;
    out[o + 5] = m.mean;
    out[o + 6] = m.std;
  }
  return out;
}
