import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readRegularFile } from './open-regular-file.ts';
import { isProcessAlive, parseStamp, processStamp, stampText } from './process-stamp.ts';

/**
 * The registry of running asof operations: one small JSON file per operation under
 * `<state dir>/running/`, naming the temp paths it made and the output stores it writes. When a process
 * dies without cleaning up (SIGKILL, power loss), the next asof command — any command — finds its entry,
 * sees the process is gone, and removes what it left (clean-stale-temps.ts).
 */
export function stateDir(): string {
  if (process.env.ASOF_STATE_DIR) return process.env.ASOF_STATE_DIR;
  const base = process.env.XDG_STATE_HOME || join(homedir(), '.local', 'state');
  return join(base, 'asof');
}

export function registryDir(): string {
  return join(stateDir(), 'running');
}

export interface RegistryRecord {
  command: string;
  pid: number;
  start: number;
  /** Temp paths (folders or files) to remove if the process dies. */
  paths: string[];
  /** Output stores the operation writes: their stale entries are cleaned if the process dies. */
  stores: { store: string; target: string }[];
}

let counter = 0;

/** One operation's registry entry, rewritten (temp file + rename) whenever it learns a new path. */
export class RegistryEntry {
  readonly record: RegistryRecord;
  private readonly file: string;
  private written = false;

  constructor(command: string) {
    const stamp = processStamp();
    this.record = { command, pid: stamp.pid, start: stamp.start, paths: [], stores: [] };
    this.file = join(registryDir(), `${stampText(stamp)}-${++counter}.json`);
  }

  addPath(path: string): void {
    this.record.paths.push(path);
    this.save();
  }

  addStore(store: string, target: string): void {
    this.record.stores.push({ store, target });
    this.save();
  }

  save(): void {
    try {
      mkdirSync(registryDir(), { recursive: true });
      const tmp = `${this.file}.part`;
      writeFileSync(tmp, JSON.stringify(this.record));
      renameSync(tmp, this.file);
      this.written = true;
    } catch {
      // An unwritable state folder only loses the cross-command cleanup; each store still cleans itself.
    }
  }

  remove(): void {
    if (this.written) rmSync(this.file, { force: true });
    rmSync(`${this.file}.part`, { force: true });
  }
}

/** The entries of processes that are no longer alive, with their file names. */
export function staleRegistryRecords(): { file: string; record: RegistryRecord }[] {
  let names: string[];
  try {
    names = readdirSync(registryDir());
  } catch {
    return [];
  }
  const out: { file: string; record: RegistryRecord }[] = [];
  for (const name of names) {
    const stamp = parseStamp(name);
    if (!stamp || isProcessAlive(stamp)) continue;
    const file = join(registryDir(), name);
    let record: RegistryRecord = { command: '?', ...stamp, paths: [], stores: [] };
    try {
      if (name.endsWith('.json')) record = JSON.parse(readRegularFile(file).toString('utf8'));
    } catch {
      // A half-written entry still names a dead process; its paths are found by the store scan.
    }
    out.push({ file, record });
  }
  return out;
}
