import { AsofError } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { characteristicsOfBatch, type SegmentBatch } from './characteristics-batch.ts';
import { CharacteristicsPool } from './characteristics-pool.ts';

/** `count` segments of seeded returns, lengths 40…299 (FFT lengths of every kind: mixed radix and Bluestein). */
function batch(seed: number, count: number): SegmentBatch {
  const offsets = [0];
  const values: number[] = [];
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  for (let i = 0; i < count; i++) {
    const n = 40 + ((seed * 31 + i * 17) % 260);
    let level = 0;
    for (let t = 0; t < n; t++) {
      level = 0.3 * level + (next() - 0.5) * 0.02;
      values.push(i % 7 === 0 ? 0.01 : level); // every 7th constant: NaN statistics
    }
    offsets.push(values.length);
  }
  return { offsets: Int32Array.from(offsets), values: Float64Array.from(values) };
}

const copy = (b: SegmentBatch): SegmentBatch => ({ offsets: b.offsets.slice(), values: b.values.slice() });

describe('CharacteristicsPool', () => {
  it('gives bit for bit the inline numbers on worker threads, batch by batch in order', async () => {
    const batches = [1, 2, 3, 4, 5].map((seed) => batch(seed, 60));
    const inline = batches.map((b) => characteristicsOfBatch(b));
    expect(inline[0].some(Number.isNaN)).toBe(true);
    for (const size of [1, 3]) {
      const pool = new CharacteristicsPool(size);
      try {
        // Sent together: replies from several workers must still land on their own batch.
        const got = await Promise.all(batches.map((b) => pool.run(copy(b))));
        got.forEach((g, i) => {
          expect(Buffer.from(g.buffer).equals(Buffer.from(inline[i].buffer)), `batch ${i} on ${size}`).toBe(
            true,
          );
        });
      } finally {
        await pool.close();
      }
    }
  }, 60_000);

  it("passes a worker's error on with its code and exit code, and refuses work after close", async () => {
    const pool = new CharacteristicsPool(1);
    const bad = batch(9, 3);
    bad.values[bad.offsets[1] + 5] = Number.NaN;
    const err = await pool.run(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AsofError);
    expect(err).toMatchObject({ code: 'ADF_NONFINITE_INPUT', exitCode: 2 });
    expect((err as Error).message).toMatch(/x\[5\] is NaN/);
    await pool.close();
    await expect(pool.run(batch(1, 1))).rejects.toThrow(/closed/);
  }, 60_000);
});
