import { describe, expect, it } from 'vitest';
import { type BaselineChunk, forecastChunk } from './baseline-chunk.ts';
import { BaselinesPool } from './baselines-pool.ts';

const DAY = 86_400_000_000;

/** One series of `n` daily values (a wiggly walk) with one task per origin from `from` on. */
function chunkOf(id: string, n: number, from: number, horizon = 3): BaselineChunk {
  const ts = Float64Array.from({ length: n }, (_, i) => i * DAY);
  const tasks = n - from;
  return {
    seriesIds: [id],
    rowSeries: new Int32Array(n),
    rowTs: ts,
    rowAv: ts.slice(),
    rowValue: Float64Array.from({ length: n }, (_, i) => 100 + 0.2 * i + 4 * Math.sin(i / 5)),
    gridSeries: new Int32Array(n),
    gridTs: ts.slice(),
    gridStep: Float64Array.from({ length: n }, (_, i) => i + 1),
    taskSeries: new Int32Array(tasks),
    taskOrigin: Float64Array.from({ length: tasks }, (_, i) => (from + i) * DAY),
    taskHorizon: new Int32Array(tasks).fill(horizon),
    taskOriginIndex: Float64Array.from({ length: tasks }, (_, i) => from + i + 1),
    taskLookback: new Float64Array(tasks).fill(Number.NaN),
  };
}

describe('BaselinesPool', () => {
  it('gives each chunk the numbers forecastChunk gives on the calling thread', async () => {
    const pool = new BaselinesPool(2);
    try {
      const chunks = [chunkOf('a', 80, 60), chunkOf('b', 50, 30), chunkOf('c', 120, 100)];
      for (const model of ['arima', 'garch'] as const) {
        const inline = chunks.map((c) => forecastChunk(structuredClone(c), model, 10));
        const threaded = await Promise.all(chunks.map((c) => pool.run(structuredClone(c), model, 10)));
        expect(threaded).toEqual(inline);
        expect(inline[0].task.length).toBe(20 * 3);
      }
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('rejects a failing chunk with its code, then every later one; close ends the workers', async () => {
    const pool = new BaselinesPool(2);
    const bad = chunkOf('x', 40, 20);
    // A task for a series the chunk holds no history of: HistoryStore refuses it in the worker.
    bad.seriesIds.push('missing');
    bad.taskSeries[0] = 1;
    try {
      await expect(pool.run(bad, 'arima', 10)).rejects.toMatchObject({ code: 'UNKNOWN_SERIES', exitCode: 2 });
      await expect(pool.run(chunkOf('y', 40, 20), 'arima', 10)).rejects.toMatchObject({
        code: 'UNKNOWN_SERIES',
      });
    } finally {
      await pool.close();
    }
    await expect(pool.run(chunkOf('z', 40, 20), 'garch', 10)).rejects.toThrow();
  }, 60_000);
});
