import { parentPort } from 'node:worker_threads';
import { AsofError } from '@asof/schema';
import { characteristicsOfBatch, type SegmentBatch } from './characteristics-batch.ts';

// A worker of CharacteristicsPool: one batch in, its characteristics out (the buffer is transferred).
parentPort?.on('message', ({ id, batch }: { id: number; batch: SegmentBatch }) => {
  try {
    const out = characteristicsOfBatch(batch);
    parentPort?.postMessage({ id, out }, [out.buffer]);
  } catch (err) {
    const known = err instanceof AsofError;
    parentPort?.postMessage({
      id,
      error: {
        code: known ? err.code : undefined,
        exitCode: known ? err.exitCode : 1,
        message: (err as Error).message,
      },
    });
  }
});
