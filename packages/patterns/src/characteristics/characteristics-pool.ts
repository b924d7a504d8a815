import { Worker } from 'node:worker_threads';
import { rebuiltWorkerError, type WorkerErrorReply } from '@asof/schema';
import { characteristicsOfBatch, type SegmentBatch } from './characteristics-batch.ts';

type Reply = { id: number; out: Float64Array } | { id: number; error: WorkerErrorReply };

/**
 * Computes batches of segment characteristics, on worker threads when `size` > 0 (else inline, on the
 * calling thread). Every batch gives the same numbers either way: the same code on the same input, and
 * V8's Math functions are the same in every thread. Workers start on demand and are ended by close().
 */
export class CharacteristicsPool {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<
    number,
    { resolve: (out: Float64Array) => void; reject: (e: Error) => void }
  >();
  private nextId = 0;
  private failure: Error | null = null;

  /** Batches worth keeping in flight: two per worker (one computing, one queued), one when inline. */
  readonly inFlight: number;

  constructor(readonly size: number) {
    this.inFlight = 2 * Math.max(1, size);
  }

  /**
   * Starts every worker now rather than at the first batch: a worker takes ~0.6 CPU-s to load its
   * TypeScript through tsx (~0.2 from the bin's bundle, docs 0038), which the build lets it spend while
   * its sources still keep one core busy (issue 21).
   */
  start(): this {
    if (this.failure) throw this.failure;
    while (this.workers.length < this.size) this.workers.push(this.startWorker());
    return this;
  }

  run(batch: SegmentBatch): Promise<Float64Array> {
    if (this.size <= 0) return Promise.resolve(characteristicsOfBatch(batch));
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    if (this.workers.length < this.size) this.workers.push(this.startWorker());
    const worker = this.workers[id % this.workers.length];
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, batch }, [batch.offsets.buffer, batch.values.buffer]);
    });
  }

  private startWorker(): Worker {
    const worker = new Worker(new URL('./characteristics-worker.mjs', import.meta.url));
    worker.on('message', (reply: Reply) => {
      const w = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (!w) return;
      if ('out' in reply) w.resolve(reply.out);
      else {
        w.reject(rebuiltWorkerError(reply.error, 'SEGMENT_CHARACTERISTICS_FAILED'));
      }
    });
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => {
      if (code !== 0 && this.waiting.size > 0)
        this.fail(new Error(`a characteristics worker exited with code ${code}`));
    });
    return worker;
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const w of this.waiting.values()) w.reject(this.failure);
    this.waiting.clear();
  }

  /** Ends the workers (pending batches are rejected). */
  async close(): Promise<void> {
    this.fail(new Error('the characteristics pool was closed'));
    await Promise.all(this.workers.splice(0).map((w) => w.terminate()));
  }
}
