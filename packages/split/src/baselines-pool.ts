import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FittedBaselineModel } from '@asof/baselines';
import { AsofError, rebuiltWorkerError, type WorkerErrorReply } from '@asof/schema';
import { type BaselineChunk, type ChunkForecasts, chunkBuffers } from './baseline-chunk.ts';

/** At most this many threads by default: each worker is a V8 heap of its own holding a chunk's history. */
export const MAX_DEFAULT_BASELINE_THREADS = 8;

/** `asof baselines`' default --threads: the machine's cores, at most MAX_DEFAULT_BASELINE_THREADS. */
export function defaultBaselineThreads(): number {
  return Math.min(availableParallelism(), MAX_DEFAULT_BASELINE_THREADS);
}

type Reply =
  | { id: number; out: ChunkForecasts }
  | {
      id: number;
      error: WorkerErrorReply;
    };

interface Job {
  id: number;
  chunk: BaselineChunk;
  model: FittedBaselineModel;
  refitEvery: number;
  resolve: (out: ChunkForecasts) => void;
  reject: (e: Error) => void;
}

/**
 * Worker threads that fit ARIMA and GARCH over chunks of whole series (forecastChunk). A chunk goes to the
 * first idle worker, so a slow chunk does not hold the others back; the caller puts the answers back in
 * chunk order, so the output does not depend on which worker took which chunk, nor on how many there are.
 * The first failure (an error in a chunk, a worker that dies) rejects every pending chunk and every later
 * one; close() terminates the workers.
 */
export class BaselinesPool {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly queue: Job[] = [];
  private readonly running = new Map<Worker, Job>();
  private nextId = 0;
  private failure: Error | null = null;

  constructor(readonly size: number) {
    if (!(Number.isInteger(size) && size >= 1)) throw new RangeError(`pool size ${size}`);
  }

  /** Starts the workers now: each loads its code (~0.2 s bundled, more through tsx) while the run stages. */
  start(): this {
    while (this.workers.length < this.size) {
      const worker = this.startWorker();
      this.workers.push(worker);
      this.idle.push(worker);
    }
    return this;
  }

  run(chunk: BaselineChunk, model: FittedBaselineModel, refitEvery: number): Promise<ChunkForecasts> {
    if (this.failure) return Promise.reject(this.failure);
    this.start();
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, chunk, model, refitEvery, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.shift() as Worker;
      const job = this.queue.shift() as Job;
      this.running.set(worker, job);
      const { id, chunk, model, refitEvery } = job;
      worker.postMessage({ id, chunk, model, refitEvery }, chunkBuffers(chunk));
    }
  }

  private startWorker(): Worker {
    const worker = new Worker(new URL('./baselines-worker.mjs', import.meta.url));
    worker.on('message', (reply: Reply) => {
      const job = this.running.get(worker);
      this.running.delete(worker);
      if (!job || job.id !== reply.id) return;
      if ('out' in reply) {
        this.idle.push(worker);
        job.resolve(reply.out);
        this.dispatch();
      } else {
        this.fail(rebuiltWorkerError(reply.error, 'BASELINES_WORKER_FAILED'), job);
      }
    });
    worker.on('error', (err) => this.fail(this.workerError(err.message)));
    worker.on('exit', (code) => {
      if (this.running.has(worker)) this.fail(this.workerError(`it exited with code ${code}`));
    });
    return worker;
  }

  private workerError(why: string): AsofError {
    return new AsofError(
      'BASELINES_WORKER_FAILED',
      `asof baselines: a worker thread fitting ARIMA or GARCH failed (${why}); run again, or with --threads 1 to fit on the main thread`,
    );
  }

  private fail(err: Error, first?: Job): void {
    this.failure ??= err;
    first?.reject(err);
    for (const job of this.running.values()) job.reject(this.failure);
    for (const job of this.queue) job.reject(this.failure);
    this.running.clear();
    this.queue.length = 0;
  }

  /** Terminates the workers; whatever is pending is rejected. */
  async close(): Promise<void> {
    this.fail(new Error('the baselines pool was closed'));
    this.idle.length = 0;
    await Promise.all(this.workers.splice(0).map((w) => w.terminate()));
  }
}
