import { existsSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanStore, removeEmptyStore } from './clean-store.ts';
import { acquireOutputLock } from './output-lock.ts';
import { isProcessAlive, parseStamp } from './process-stamp.ts';
import { SCRATCH_PREFIX } from './scratch-dir.ts';
import { isInsideAsofTemp } from './store-layout.ts';
import { staleRegistryRecords } from './temp-registry.ts';

/**
 * Removes what dead asof processes left behind: the temp paths and stores named by their registry
 * entries, and scratch folders in the system temp folder whose process is gone. Every command runs this
 * at start, so a kill at any instant leaves nothing the next command does not clear. Live processes'
 * paths are never touched; a store another live command holds the lock of is skipped.
 */
export function cleanStaleTemps(): string[] {
  const removed: string[] = [];
  for (const { file, record } of staleRegistryRecords()) {
    for (const p of record.paths) {
      if (!isInsideAsofTemp(p)) continue;
      rmSync(p, { recursive: true, force: true, maxRetries: 3 });
      removed.push(p);
    }
    for (const { store, target } of record.stores) {
      if (!existsSync(store)) continue;
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
