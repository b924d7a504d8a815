import { accessSync, constants, lstatSync, statfsSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { AsofError } from '@asof/schema';
import { isSameOrInside } from './resolve-real-path.ts';

/** The errno codes that mean "this disk or folder cannot take the write", each with its words and fix. */
const IO_CAUSES: Record<string, { code: string; cause: string; fix: string }> = {
  EROFS: {
    code: 'OUTPUT_READ_ONLY',
    cause: 'the file system is read-only',
    fix: 'choose an output on a writable disk',
  },
  ENOSPC: {
    code: 'OUTPUT_NO_SPACE',
    cause: 'no space left on the device',
    fix: 'free some space on that disk or choose an output on another',
  },
  EDQUOT: {
    code: 'OUTPUT_NO_SPACE',
    cause: 'your disk quota is used up',
    fix: 'free some space or choose an output on another disk',
  },
  EACCES: {
    code: 'OUTPUT_NO_PERMISSION',
    cause: 'permission denied',
    fix: 'check the permissions on that path, or choose an output in a folder you can write to',
  },
  EPERM: {
    code: 'OUTPUT_NO_PERMISSION',
    cause: 'operation not permitted',
    fix: 'check the permissions on that path, or choose an output in a folder you can write to',
  },
  ENOENT: {
    code: 'OUTPUT_FOLDER_GONE',
    cause: 'its folder does not exist (removed while asof ran?)',
    fix: 'check the path and run the command again',
  },
  EMFILE: {
    code: 'OUTPUT_TOO_MANY_FILES',
    cause: 'too many open files',
    fix: 'raise the open-file limit (ulimit -n) or close other programs',
  },
};

/** An I/O error asof can name (disk read-only or full, no permission): one line, exit 1, never a trace. */
export class OutputIoError extends AsofError {
  constructor(
    code: string,
    message: string,
    readonly path: string,
    readonly errno: string,
    cause?: unknown,
  ) {
    super(code, message, { context: { file: path, errno }, cause, exitCode: 1 });
  }
}

/** Is `err` a Node system error with one of the codes asof turns into a one-line message? */
export function isNamedIoError(err: unknown): err is NodeJS.ErrnoException {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && code in IO_CAUSES && !(err instanceof AsofError);
}

/** The verb for a failed system call, for messages ('write' for the calls that make or change files). */
function verbOf(syscall: string | undefined): string {
  if (!syscall) return 'write';
  if (['open', 'read', 'scandir', 'stat', 'lstat', 'access'].includes(syscall)) return 'open';
  return 'write';
}

/**
 * The OutputIoError for a system error met while writing `path` (the error's own path when it names one),
 * or null when `err` is no such error.
 */
export function outputIoError(
  err: unknown,
  path?: string,
  /** How to name the failing path (e.g. the output instead of its temp folder). */
  describe: (path: string) => string = (p) => p,
): OutputIoError | null {
  if (!isNamedIoError(err)) return null;
  const at = err.path ?? path ?? 'a file';
  const where = describe(at);
  let errno = err.code as string;
  // A read-only mount can answer ENOENT to a mkdir (audit 14.2): name the cause the folder really has.
  if (errno === 'ENOENT') errno = writableProblem(nearestExisting(at)) ?? errno;
  const io = IO_CAUSES[errno];
  return new OutputIoError(
    io.code,
    `cannot ${verbOf(err.syscall)} ${where}: ${io.cause} (${errno}); ${io.fix}`,
    at,
    errno,
    err,
  );
}

/** The deepest existing folder on the way to `path` (itself when it exists). */
export function nearestExisting(path: string): string {
  let p = path;
  for (;;) {
    try {
      lstatSync(p);
      return p;
    } catch {
      const up = dirname(p);
      if (up === p) return p;
      p = up;
    }
  }
}

/** 'EROFS' or 'EACCES' when `dir` cannot be written (access(2) says so even for root on a read-only disk). */
function writableProblem(dir: string): string | null {
  try {
    accessSync(dir, constants.W_OK);
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'EROFS' || code === 'EACCES' || code === 'EPERM' ? code : null;
  }
}

/** Bytes free for this user on the disk holding `dir`, or null when the system cannot say. */
function freeBytes(dir: string): number | null {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}

const MIB = 1024 * 1024;

/**
 * The free space an output's disk must have before asof starts the work (default 4 MiB; ASOF_MIN_FREE_MB
 * overrides it): a full disk is refused before minutes of work, not after (audit 13.2b). The estimate is a
 * floor, not the output's size: a write that still runs out of space is one line naming the file.
 */
function minFreeBytes(): number {
  const mb = Number(process.env.ASOF_MIN_FREE_MB);
  return Number.isFinite(mb) && mb >= 0 ? mb * MIB : 4 * MIB;
}

/**
 * Checks, before any work, that the output at `target` can be written: the deepest existing folder on the
 * way to it (normally its parent) is writable and its disk has the minimum free space. Throws
 * OutputIoError naming the folder, the cause and the fix.
 */
export function checkOutputWritable(target: string, flag: string, requested: string): void {
  const dir = nearestExisting(dirname(target));
  const problem = injectedProbeFault() ?? writableProblem(dir);
  if (problem) {
    const io = IO_CAUSES[problem];
    throw new OutputIoError(
      io.code,
      `${flag} ${requested}: cannot write in ${dir}: ${io.cause} (${problem}); ${io.fix}`,
      dir,
      problem,
    );
  }
  const free = freeBytes(dir);
  const need = minFreeBytes();
  if (free !== null && free < need) {
    throw new OutputIoError(
      'OUTPUT_NO_SPACE',
      `${flag} ${requested}: only ${formatBytes(free)} free on the disk of ${dir} (asof starts an output with at least ${formatBytes(need)}, ASOF_MIN_FREE_MB); free some space on that disk or choose an output on another`,
      dir,
      'ENOSPC',
    );
  }
}

function formatBytes(n: number): string {
  if (n >= 1024 * MIB) return `${(n / 1024 / MIB).toFixed(1)} GiB`;
  if (n >= MIB) return `${(n / MIB).toFixed(1)} MiB`;
  return `${Math.round(n / 1024)} KiB`;
}

/**
 * ASOF_FAULT=probe:<ERRNO> (EROFS, EACCES): the writability probe reports that cause, as a read-only mount
 * or a folder root cannot write would (the tests run as root, whom chmod does not stop).
 */
function injectedProbeFault(): string | null {
  const m = /^probe:(E[A-Z]+)$/.exec(process.env.ASOF_FAULT ?? '');
  return m && m[1] in IO_CAUSES ? m[1] : null;
}

/**
 * ASOF_FAULT=<point>:<ERRNO> (e.g. write:lock:EROFS, output:produced:ENOSPC): throws the system error a
 * write at that point would, naming `path`, so tests can show how asof reports a disk that fails mid-run.
 */
export function faultErrno(point: string, path: string): void {
  const fault = process.env.ASOF_FAULT;
  if (!fault?.startsWith(`${point}:`)) return;
  const errno = fault.slice(point.length + 1);
  if (!(errno in IO_CAUSES)) return;
  throw Object.assign(new Error(`${errno}: injected by ASOF_FAULT, write '${path}'`), {
    code: errno,
    syscall: 'write',
    path,
  });
}

/**
 * `err` as met while an output was written in its temp folder `tmp`: a disk that fills up or turns read-only
 * during the work (audit 13.2b) is one line naming the output the user asked for (and the file being
 * written inside it), not the temp path; any other error is returned as it is.
 */
export function outputWriteError(err: unknown, tmp: string, requested: string): unknown {
  return (
    outputIoError(err, tmp, (p) =>
      isSameOrInside(p, tmp) ? `${requested} (writing ${relative(tmp, p) || 'its temp folder'})` : p,
    ) ?? err
  );
}
