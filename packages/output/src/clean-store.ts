import {
  existsSync,
  lstatSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { inspectOutputTarget, isAsofOutputDir } from './inspect-output-target.ts';
import { isProcessAlive, parseStamp } from './process-stamp.ts';
import { isGenerationName, linkTextOf, linkTmpName, stampOfStoreEntry } from './store-layout.ts';
import { STORE_MARKER, storeProblem, writeStoreMarker } from './store-owner.ts';

function remove(path: string, removed: string[]): void {
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 3 });
    removed.push(path);
  } catch {
    // Still in use or not ours to remove (permissions): the next command tries again.
  }
}

/**
 * Removes the store folder and its `.asof` parent when nothing is left in them (the `.asof` folder's own
 * marker aside). If another command made a store there between the look and the removal, the marker is
 * written back, so that store stays recognisably asof's.
 */
export function removeEmptyStore(store: string): void {
  try {
    rmdirSync(store);
  } catch {
    return;
  }
  const container = dirname(store);
  try {
    const names = readdirSync(container);
    if (names.length !== 1 || names[0] !== STORE_MARKER) return;
    unlinkSync(join(container, STORE_MARKER));
  } catch {
    return;
  }
  try {
    rmdirSync(container);
  } catch {
    try {
      writeStoreMarker(container);
    } catch {
      // Unwritable now: the store is left for its own output's next write, which adopts it by its layout.
    }
  }
}

/** Points `target` at `generation` with one rename of a fresh symlink over it. */
export function switchLink(store: string, target: string, generation: string): void {
  const tmp = join(store, linkTmpName());
  symlinkSync(linkTextOf(target, generation), tmp);
  renameSync(tmp, target);
}

/**
 * Cleans one output store: temp folders, symlinks and lock files of asof processes that are no longer
 * alive; and, when the caller holds the store's lock, every generation the output's symlink does not name.
 * If a process died between moving an old folder aside and linking the new generation (only possible
 * when a pre-generation folder or an empty folder is replaced), the output path is missing: the newest
 * complete generation is linked again, so the output is back.
 */
export function cleanStore(store: string, target: string, holdsLock: boolean): string[] {
  const removed: string[] = [];
  // Every caller checked the store already; checked again here because this is where deletion happens.
  if (storeProblem(store) !== null) return removed;
  let names: string[];
  try {
    names = readdirSync(store);
  } catch {
    return removed;
  }
  for (const name of names) {
    const stamp = stampOfStoreEntry(name) ?? (name.startsWith('lock.') ? parseStamp(name.slice(5)) : null);
    if (stamp && !isProcessAlive(stamp)) remove(join(store, name), removed);
  }
  if (holdsLock) {
    const gens = names.filter((n) => isGenerationName(n) && existsSync(join(store, n)));
    const state = inspectOutputTarget(target, 'dir');
    let current = state.state === 'generation' && gens.includes(state.generation) ? state.generation : null;
    const missing =
      state.state === 'absent' ||
      (state.state === 'generation' && current === null && lstatSync(target).isSymbolicLink());
    if (current === null && missing) {
      const complete = gens
        .filter((g) => isAsofOutputDir(join(store, g)))
        .sort((a, b) => statSync(join(store, b)).mtimeMs - statSync(join(store, a)).mtimeMs);
      if (complete.length > 0) {
        switchLink(store, target, complete[0]);
        current = complete[0];
      }
    }
    for (const g of gens) if (g !== current) remove(join(store, g), removed);
  }
  removeEmptyStore(store);
  return removed;
}
