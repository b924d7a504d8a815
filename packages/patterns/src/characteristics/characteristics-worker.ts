import { parentPort } from 'node:worker_threads';
import { workerErrorReply } from '@asof/schema';
import { characteristicsOfBatch, type SegmentBatch } from './characteristics-batch.ts';

// A worker of CharacteristicsPool: one batch in, its characteristics out (the buffer is transferred).
parentPort?.on('message', ({ id, batch }: { id: number; batch: SegmentBatch }) => {
  try {
    const out = characteristicsOfBatch(batch);
    parentPort?.postMessage({ id, out }, [out.buffer]);
  } catch (err) {
    parentPort?.postMessage({ id, error: workerErrorReply(err) });
  }
});
