import { parentPort } from 'node:worker_threads';
import type { FittedBaselineModel } from '@asof/baselines';
import { workerErrorReply } from '@asof/schema';
import { type BaselineChunk, forecastBuffers, forecastChunk } from './baseline-chunk.ts';

interface Job {
  id: number;
  chunk: BaselineChunk;
  model: FittedBaselineModel;
  refitEvery: number;
}

// A worker of BaselinesPool: one chunk of series in, its forecasts out (the buffers are transferred). An
// error goes back with its code, so the run fails as it would in-process (a LookaheadError stays LOOKAHEAD).
parentPort?.on('message', ({ id, chunk, model, refitEvery }: Job) => {
  try {
    const out = forecastChunk(chunk, model, refitEvery);
    parentPort?.postMessage({ id, out }, forecastBuffers(out));
  } catch (err) {
    parentPort?.postMessage({ id, error: workerErrorReply(err) });
  }
});
