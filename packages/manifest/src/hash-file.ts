import { createHash } from 'node:crypto';
import { closeSync, createReadStream } from 'node:fs';
import { openRegularFile } from '@asof/output';

/**
 * sha256 and size of a file, streamed (outputs can be hundreds of MB). Only a regular file is read: a FIFO
 * or a device in its place is NotRegularFileError at once, never a read that waits forever (audit 2.12).
 */
export async function hashFile(path: string): Promise<{ sha256: string; bytes: number }> {
  const { fd } = openRegularFile(path);
  try {
    return await hashDescriptor(fd);
  } finally {
    closeSync(fd);
  }
}

/** sha256 and size of what an open descriptor holds, read from its start (the descriptor stays open). */
export async function hashDescriptor(fd: number): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream('', { fd, start: 0, autoClose: false })) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}
