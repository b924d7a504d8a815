import { lstatSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { readRegularFile } from './open-regular-file.ts';
import { isProcessAlive, parseStamp, processStamp, stampText } from './process-stamp.ts';

/** The prefix of the spill folders asof makes in a pipeline's `duckdb.temp_directory`; the stamp follows. */
export const SPILL_PREFIX = 'asof-spill-';
/** The file that marks a spill folder as asof's, naming the process that made it. */
export const SPILL_MARKER = '.asof-spill';

/**
 * Makes the folder DuckDB spills into for one command, inside the user's `temp_directory`:
 * `asof-spill-<pid>-<start>/`, holding a marker file that names this process. `track` registers it first
 * (the registry entry of the operation), so a kill at any instant leaves a path the next asof command
 * removes (audit 4.13): cleanupPathProblem accepts a registry path outside a store only when it is such a
 * folder — named so, marked so, made by the dead process the entry names.
 */
export function makeSpillDir(tempDirectory: string, track: (path: string) => void): string {
  const path = join(resolve(tempDirectory), `${SPILL_PREFIX}${stampText()}`);
  track(path);
  mkdirSync(path, { recursive: true });
  const me = processStamp();
  writeFileSync(
    join(path, SPILL_MARKER),
    `${JSON.stringify({ asof_spill: 1, pid: me.pid, start: me.start })}\n`,
  );
  return path;
}

/** DuckDB's own temp files (duckdb_temp_storage…, duckdb_temp_block…): what a spill folder may hold. */
const DUCKDB_TEMP = /^duckdb_temp_/;

/**
 * Why the start-up cleanup may not remove `path` as a dead process's spill folder, or null when it may: a
 * real folder (no symlink on the way) named `asof-spill-<pid>-<start>` of a process that is no longer
 * running, owned by this user, holding the marker of that same process and otherwise only DuckDB's temp files.
 */
export function spillDirProblem(path: string): string | null {
  if (resolve(path) !== path) return 'is not a normalised absolute path';
  const name = basename(path);
  if (!name.startsWith(SPILL_PREFIX)) return 'is not an asof spill folder';
  const stamp = parseStamp(name.slice(SPILL_PREFIX.length));
  if (!stamp || name !== `${SPILL_PREFIX}${stampText(stamp)}`) return "is not an asof spill folder's name";
  if (isProcessAlive(stamp)) return 'belongs to a running process';
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(path);
  } catch {
    return 'does not exist';
  }
  if (st.isSymbolicLink() || !st.isDirectory()) return 'is not a real folder';
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) return `belongs to another user (uid ${st.uid})`;
  if (realpathSync(path) !== path) return `lies behind a symlink (${realpathSync(path)})`;
  try {
    const marker = JSON.parse(readRegularFile(join(path, SPILL_MARKER)).toString('utf8'));
    if (marker?.asof_spill !== 1 || marker.pid !== stamp.pid || marker.start !== stamp.start)
      return `has a ${SPILL_MARKER} marker of another process`;
  } catch {
    return `has no ${SPILL_MARKER} marker`;
  }
  const other = readdirSync(path).find((n) => n !== SPILL_MARKER && !DUCKDB_TEMP.test(n));
  if (other) return `holds ${other}, which DuckDB does not write there`;
  return null;
}
