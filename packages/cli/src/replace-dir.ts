import { existsSync, renameSync, rmSync } from 'node:fs';

/** Moves a finished temp folder into place, replacing any previous one only after the new one is complete. */
export function replaceDir(tmp: string, dest: string): void {
  const old = `${dest}.old-${process.pid}`;
  if (existsSync(dest)) renameSync(dest, old);
  renameSync(tmp, dest);
  rmSync(old, { recursive: true, force: true });
}
