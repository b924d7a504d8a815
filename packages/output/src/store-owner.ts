import { lstatSync, readdirSync, readlinkSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { isAsofOutputDir } from './inspect-output-target.ts';
import { readRegularFile } from './open-regular-file.ts';
import { isProcessAlive, processStamp } from './process-stamp.ts';
import { SPILL_PREFIX, spillDirProblem } from './spill-dir.ts';
import { STORE_DIR, stampOfStoreEntry, storeOf } from './store-layout.ts';

/**
 * How asof knows a `<parent>/.asof` folder is its own (docs/decisions/0051-asof-stores-and-output-kinds.md):
 * it writes this marker file into the folder when it creates it, and nothing in a store is ever deleted
 * unless the folder is a real folder (not a symlink, no symlink on the way), owned by the user running asof,
 * and holds the marker. The name is reserved: no output may be called `.asof-store`.
 */
export const STORE_MARKER = '.asof-store';
const MARKER_TEXT = `${JSON.stringify({
  asof_store: 1,
  note: 'made by asof: the generations and temp folders of the outputs beside this folder',
})}\n`;

/** The names asof gives the entries of one output's store (store-layout.ts); anything else is not asof's. */
const STORE_ENTRY = /^(?:lock|lock\.\d+-\d+|tmp-\d+-\d+-[^/]+|link-\d+-\d+-[^/]+|gen-[^/]+)$/;

function hasMarker(container: string): boolean {
  try {
    if (!lstatSync(join(container, STORE_MARKER)).isFile()) return false;
    return JSON.parse(readRegularFile(join(container, STORE_MARKER)).toString('utf8'))?.asof_store === 1;
  } catch {
    return false;
  }
}

/** Writes the marker whole (temp name, then rename), so a reader never sees half of it. */
export function writeStoreMarker(container: string): void {
  const tmp = join(container, `${STORE_MARKER}.${processStamp().pid}`);
  writeFileSync(tmp, MARKER_TEXT);
  renameSync(tmp, join(container, STORE_MARKER));
}

/**
 * Why a marker-less `.asof` folder does not look like one an older asof made (which wrote no marker), or
 * null when it does: every entry is a real folder holding only asof's store names, and every `gen-…` in it
 * holds an asof manifest or results document. A folder of anyone else's fails at the first odd entry.
 */
function legacyLayoutProblem(container: string): string | null {
  for (const name of readdirSync(container)) {
    // A marker's temp file left by a kill while the marker was written.
    if (name.startsWith(`${STORE_MARKER}.`)) continue;
    const store = join(container, name);
    if (!lstatSync(store).isDirectory()) return `holds ${name}, which asof does not write there`;
    for (const entry of readdirSync(store)) {
      const path = join(store, entry);
      if (!STORE_ENTRY.test(entry)) return `holds ${name}/${entry}, which asof does not write there`;
      if (entry.startsWith('gen-') && (lstatSync(path).isSymbolicLink() || !isAsofOutputDir(path)))
        return `holds ${name}/${entry}, which is not an output asof wrote`;
    }
  }
  return null;
}

/**
 * Why asof may not use (or clean) the store folder `container` (`<parent>/.asof`), or null when it may.
 * A missing folder is fine (asof creates it). `adopt`: a folder an older asof made without the marker is
 * recognised by its layout and given the marker — only when the user names an output there (`--out`); the
 * start-up cleanup of other commands' leftovers never adopts, so it only ever deletes in marked folders.
 */
export function storeContainerProblem(container: string, mode: 'check' | 'adopt' | 'clean'): string | null {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(container);
  } catch {
    return mode === 'clean' ? 'does not exist' : null;
  }
  if (st.isSymbolicLink()) return `is a symlink to ${readlinkSync(container)}`;
  if (!st.isDirectory()) return 'is not a folder';
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) return `belongs to another user (uid ${st.uid}, you are ${uid})`;
  if (resolve(realpathSync(container)) !== container)
    return `lies behind a symlink (${realpathSync(container)})`;
  if (hasMarker(container)) return null;
  if (mode === 'clean') return `has no ${STORE_MARKER} marker (made by an older asof, or not by asof)`;
  const problem = legacyLayoutProblem(container);
  if (problem) return `was not made by asof: it ${problem}`;
  if (mode === 'adopt') writeStoreMarker(container);
  return null;
}

/** Why the output store `store` (`<parent>/.asof/<name>`) may not be cleaned, or null when it may. */
export function storeProblem(store: string): string | null {
  if (resolve(store) !== store) return 'is not a normalised absolute path';
  const container = dirname(store);
  if (basename(container) !== STORE_DIR) return `is not inside a ${STORE_DIR} folder`;
  const problem = storeContainerProblem(container, 'clean');
  if (problem) return `lies in ${container}, which ${problem}`;
  try {
    const st = lstatSync(store);
    if (st.isSymbolicLink()) return 'is a symlink';
    if (!st.isDirectory()) return 'is not a folder';
  } catch {
    return 'does not exist';
  }
  return null;
}

/**
 * Why the start-up cleanup may not remove `path`, named by a dead process's registry entry, or null when
 * it may: it must be, as written (no `..`, no symlink on the way), a `tmp-…`/`link-…` entry of a store
 * asof made, stamped by a process that is no longer running — or a spill folder such a process made
 * (spill-dir.ts).
 */
export function cleanupPathProblem(path: string): string | null {
  if (resolve(path) !== path) return 'is not a normalised absolute path';
  // A DuckDB spill folder in a pipeline's temp_directory (audit 4.13): marked and named by its process.
  if (basename(path).startsWith(SPILL_PREFIX)) return spillDirProblem(path);
  const stamp = stampOfStoreEntry(basename(path));
  if (!stamp) return "is not an asof temp folder's name (tmp-<pid>-<start>-…)";
  if (isProcessAlive(stamp)) return 'belongs to a running process';
  return storeProblem(dirname(path));
}

/** Why the registry's `{ store, target }` pair may not be cleaned, or null when it may. */
export function cleanupStoreProblem(store: string, target: string): string | null {
  if (resolve(target) !== target || storeOf(target) !== store) return `is not the store of ${target}`;
  return storeProblem(store);
}
