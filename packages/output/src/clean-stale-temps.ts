import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cleanStore, removeEmptyStore } from './clean-store.ts';
import { acquireOutputLock } from './output-lock.ts';
import { isProcessAlive, parseStamp } from './process-stamp.ts';
import { SCRATCH_PREFIX } from './scratch-dir.ts';
import { cleanupPathProblem, cleanupStoreProblem } from './store-owner.ts';
import { staleRegistryRecords } from './temp-registry.ts';

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Prints a warning line on stderr (the CLI passes its own writer). */
const stderrWarn = (line: string) => {
  process.stderr.write(`asof: ${line}\n`);
};

/**
 * Removes what dead asof processes left behind: the temp paths and stores named by their registry
 * entries, and scratch folders in the system temp folder whose process is gone. Every command runs this
 * at start, so a kill at any instant leaves nothing the next command does not clear. Live processes'
 * paths are never touched; a store another live command holds the lock of is skipped.
 *
 * The registry is a folder of plain files anyone running as the user can write, so an entry is a claim,
 * not an order (issue 52): a path is removed only when it is, as written, a temp entry of a store asof made
 * (store-owner.ts: no `..`, no symlink on the way, the `.asof` folder marked as asof's). Any other entry is
 * dropped with a warning and never followed; an entry naming what no longer exists is dropped quietly.
 */
export function cleanStaleTemps(warn: (line: string) => void = stderrWarn): string[] {
  const removed: string[] = [];
  const refuse = (what: string, path: string, problem: string, file: string) => {
    if (resolve(path) === path && !exists(path)) return;
    warn(
      `cleanup left ${what} ${JSON.stringify(path)} alone: it ${problem} (named by the registry entry ${file}, now dropped); asof deletes only its own temp folders — remove it yourself if it is a leftover`,
    );
  };
  for (const { file, record } of staleRegistryRecords()) {
    for (const p of Array.isArray(record.paths) ? record.paths : []) {
      const problem = typeof p === 'string' ? cleanupPathProblem(p) : 'is not a path';
      if (problem) {
        refuse('the path', String(p), problem, file);
        continue;
      }
      rmSync(p, { recursive: true, force: true, maxRetries: 3 });
      removed.push(p);
    }
    for (const entry of Array.isArray(record.stores) ? record.stores : []) {
      const { store, target } = (entry ?? {}) as { store?: unknown; target?: unknown };
      const problem =
        typeof store === 'string' && typeof target === 'string'
          ? cleanupStoreProblem(store, target)
          : 'is not a path';
      if (problem) {
        refuse('the store', String(store), problem, file);
        continue;
      }
      if (typeof store !== 'string' || typeof target !== 'string') continue;
      let release: (() => void) | null = null;
      try {
        release = acquireOutputLock(store, target, 'asof cleanup', { tryOnly: true });
        if (release) removed.push(...cleanStore(store, target, true));
      } catch {
        // Not ours to clean now (unwritable, or taken meanwhile): a later command tries again.
      } finally {
        release?.();
        removeEmptyStore(store);
      }
    }
    rmSync(file, { force: true });
  }
  let names: string[] = [];
  try {
    names = readdirSync(tmpdir());
  } catch {
    // No readable temp folder: nothing of ours can be there.
  }
  for (const name of names) {
    if (!name.startsWith(SCRATCH_PREFIX)) continue;
    const stamp = parseStamp(name.slice(SCRATCH_PREFIX.length));
    if (stamp && !isProcessAlive(stamp)) {
      rmSync(join(tmpdir(), name), { recursive: true, force: true, maxRetries: 3 });
      removed.push(join(tmpdir(), name));
    }
  }
  return removed;
}
