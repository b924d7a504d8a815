import { sequenceCharacteristics } from '../stats/sequence-characteristics.ts';

/** Numbers per segment in a batch's result: adfStat, adfUsedLag, adfNobs, acf1, forecastability. */
export const CHARACTERISTICS_WIDTH = 5;

/**
 * Segments' returns back to back: segment i is values[offsets[i] … offsets[i + 1]). Transferable as is
 * to a worker thread (two ArrayBuffers, no copy).
 */
export interface SegmentBatch {
  offsets: Int32Array<ArrayBuffer>;
  values: Float64Array<ArrayBuffer>;
}

/** The SPEC §7 characteristics of every segment of `batch`, CHARACTERISTICS_WIDTH numbers each. */
export function characteristicsOfBatch(batch: SegmentBatch): Float64Array<ArrayBuffer> {
  const n = batch.offsets.length - 1;
  const out = new Float64Array(n * CHARACTERISTICS_WIDTH);
  for (let i = 0; i < n; i++) {
    const c = sequenceCharacteristics(batch.values.subarray(batch.offsets[i], batch.offsets[i + 1]));
    const o = i * CHARACTERISTICS_WIDTH;
    out[o] = c.adfStat;
    out[o + 1] = c.adfUsedLag;
    out[o + 2] = c.adfNobs;
    out[o + 3] = c.acf1;
    out[o + 4] = c.forecastability;
  }
  return out;
}
