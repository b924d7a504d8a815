import { lstatSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cleanStore, removeEmptyStore } from './clean-store.ts';
import { OutputRefusedError } from './output-errors.ts';
import { outputIoError } from './output-io-error.ts';
import { acquireOutputLock } from './output-lock.ts';
import type { OutputPlan } from './plan-output.ts';
import { tmpName, WORK_DIR } from './store-layout.ts';
import { storeContainerProblem, writeStoreMarker } from './store-owner.ts';
import { RegistryEntry } from './temp-registry.ts';

const active = new Set<OutputOperation>();

function isDir(path: string): boolean {
  try {
    const st = lstatSync(path);
    return st.isDirectory() && !st.isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Creates `<parent>/.asof` (with asof's marker) and the output's store in it, or checks that they are
 * asof's: a real folder, the user's, marked — or an older asof's by its layout, then marked now. Anything
 * else is refused (exit 2), so nothing asof later cleans can lie outside a folder it made.
 */
function makeStore(plan: OutputPlan): void {
  const container = dirname(plan.store);
  try {
    mkdirSync(dirname(container), { recursive: true });
    try {
      mkdirSync(container);
      writeStoreMarker(container);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const problem = storeContainerProblem(container, 'adopt');
    if (problem) throw new StoreRefused(`${container} ${problem}`);
    try {
      mkdirSync(plan.store);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (!isDir(plan.store)) throw new StoreRefused(`${plan.store} is not a folder asof made`);
  } catch (cause) {
    if (cause instanceof StoreRefused) {
      throw new OutputRefusedError(
        'OUTPUT_STORE_NOT_ASOF',
        `--out ${plan.requested}: ${cause.message}; asof keeps its generations only in a real .asof folder it made itself — move that away or choose another --out`,
        { context: { file: plan.store } },
      );
    }
    const io = outputIoError(cause, plan.store, () => `--out ${plan.requested} (its store ${plan.store})`);
    if (io) throw io;
    throw new OutputRefusedError(
      'OUTPUT_NOT_WRITABLE',
      `--out ${plan.requested}: cannot create ${plan.store} (${(cause as NodeJS.ErrnoException).code}); choose a folder you can write to`,
      { context: { file: plan.store }, cause },
    );
  }
}

class StoreRefused extends Error {}

/** Operations of this process still running (for the signal handler). */
export function activeOperations(): OutputOperation[] {
  return [...active];
}

/**
 * One command writing one output: holds the store's lock, owns a temp folder `<store>/tmp-<stamp>-…/`
 * (the output is written there; DuckDB's files go under its `.work/`), and is listed in the registry
 * until it ends, so a kill leaves nothing the next command cannot find.
 */
export class OutputOperation {
  readonly tmp: string;
  readonly work: string;
  private readonly release: () => void;
  private readonly entry: RegistryEntry;
  private ended = false;

  constructor(
    readonly plan: OutputPlan,
    command: string,
  ) {
    makeStore(plan);
    const release = acquireOutputLock(plan.store, plan.target, command);
    this.release = release ?? (() => {});
    this.entry = new RegistryEntry(command);
    this.entry.addStore(plan.store, plan.target);
    active.add(this);
    cleanStore(plan.store, plan.target, true);
    this.tmp = join(plan.store, tmpName());
    this.work = join(this.tmp, WORK_DIR);
    this.entry.addPath(this.tmp);
    try {
      mkdirSync(this.work, { recursive: true });
    } catch (err) {
      this.end();
      throw outputIoError(err, this.tmp, () => `--out ${plan.requested} (its temp folder)`) ?? err;
    }
  }

  /** Registers another temp path this operation made (removed with it, or by the next command if killed). */
  track(path: string): void {
    this.entry.addPath(path);
  }

  /** Removes the temp folder; the output path keeps whatever it had. */
  abort(): void {
    rmSync(this.tmp, { recursive: true, force: true, maxRetries: 3 });
  }

  /** Releases the lock and forgets the operation (after a commit or an abort). */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const p of this.entry.record.paths) rmSync(p, { recursive: true, force: true, maxRetries: 3 });
    this.release();
    removeEmptyStore(this.plan.store);
    this.entry.remove();
    active.delete(this);
  }
}
