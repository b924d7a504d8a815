import { linkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularFile } from './open-regular-file.ts';
import { OutputBusyError } from './output-errors.ts';
import { faultErrno, outputIoError } from './output-io-error.ts';
import { isProcessAlive, processStamp } from './process-stamp.ts';

interface LockRecord {
  pid: number;
  start: number;
  command: string;
  since: string;
}

function readLock(path: string): LockRecord | null {
  try {
    return JSON.parse(readRegularFile(path).toString('utf8')) as LockRecord;
  } catch {
    return null;
  }
}

/**
 * Takes the lock of an output store (`<store>/lock`, created exclusively). A lock held by a live asof
 * process fails with one line naming it; one left by a dead process is taken over. Returns a release
 * function, or null when `tryOnly` and the lock is busy.
 */
export function acquireOutputLock(
  store: string,
  target: string,
  command: string,
  options: { tryOnly?: boolean } = {},
): (() => void) | null {
  const path = join(store, 'lock');
  const me = processStamp();
  const record: LockRecord = { pid: me.pid, start: me.start, command, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    // Written whole under a private name, then hard-linked into place: link() fails when the lock exists,
    // and a reader never sees a half-written lock.
    const mine = `${path}.${me.pid}-${me.start}`;
    try {
      faultErrno('write:lock', mine);
      writeFileSync(mine, JSON.stringify(record));
    } catch (err) {
      // A read-only or full disk (audit 14.1): one line naming the lock and the cause, before any work.
      throw outputIoError(err, mine, () => `${target} (its lock ${path})`) ?? err;
    }
    try {
      linkSync(mine, path);
      rmSync(mine, { force: true });
      return () => {
        const now = readLock(path);
        if (now && now.pid === me.pid && now.start === me.start) rmSync(path, { force: true });
      };
    } catch (err) {
      rmSync(mine, { force: true });
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
        throw outputIoError(err, path, () => `${target} (its lock ${path})`) ?? err;
    }
    const holder = readLock(path);
    if (holder && isProcessAlive(holder)) {
      if (options.tryOnly) return null;
      throw new OutputBusyError(
        `${target} is being written by another asof command (${holder.command}, pid ${holder.pid}, since ${holder.since}); wait for it to finish or choose another --out`,
        { target, pid: holder.pid, command: holder.command },
      );
    }
    // Left by a dead process: take it over.
    rmSync(path, { force: true });
  }
  throw new OutputBusyError(`${target}: could not take the output lock ${path}; retry the command`, {
    target,
  });
}
