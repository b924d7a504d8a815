import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { AsofError } from '@asof/schema';

/** What a path that is not a regular file is, in words (for messages). */
export function fileTypeWords(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSymbolicLink()) return 'a symlink';
  return 'not a regular file';
}

/** A path asof reads (a listed output file, a manifest, a forecasts file) is not a regular file. */
export class NotRegularFileError extends AsofError {
  constructor(
    readonly path: string,
    readonly what: string,
    label: string = path,
  ) {
    super(
      'NOT_REGULAR_FILE',
      `${label} is not a regular file (it is ${what}); asof reads only regular files — replace it with the file it should be, or rebuild the output`,
      { context: { file: path, type: what } },
    );
  }
}

// O_NONBLOCK: open(2) of a FIFO for reading would wait for a writer, forever and with the main thread
// blocked, so no signal handler could run (audit reliability-2026-12, 2.12). With it the open returns at
// once and fstat tells what the descriptor is; a regular file reads the same with or without the flag.
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/**
 * Opens `path` for reading only when it is a regular file (symlinks followed): never blocks on a FIFO or
 * a device. Throws NotRegularFileError (exit 1) naming the path and what it is; open errors (ENOENT,
 * EACCES) are thrown as they are. The caller closes the descriptor.
 */
export function openRegularFile(path: string, label: string = path): { fd: number; stat: Stats } {
  const fd = openSync(path, READ_FLAGS);
  let stat: Stats;
  try {
    stat = fstatSync(fd);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  if (!stat.isFile()) {
    closeSync(fd);
    throw new NotRegularFileError(path, fileTypeWords(stat), label);
  }
  return { fd, stat };
}

/** readFileSync for a path that must be a regular file (see openRegularFile). */
export function readRegularFile(path: string, label: string = path): Buffer {
  const { fd } = openRegularFile(path, label);
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
