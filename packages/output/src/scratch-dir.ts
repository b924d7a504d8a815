import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stampText } from './process-stamp.ts';

/** The prefix of scratch folders asof makes in the system temp folder; the process stamp follows it. */
export const SCRATCH_PREFIX = 'asof-scratch-';

const live = new Set<string>();

/** Scratch folders of this process still in use (for the signal handler). */
export function liveScratchPaths(): string[] {
  return [...live];
}

/**
 * A scratch path in the system temp folder for work that writes no output (DuckDB spill files of a
 * command that only reads): `asof-scratch-<pid>-<start>-<label>`. Not created here (DuckDB creates its
 * temp folder only when it spills). `dispose` removes it; if the process is killed, the next asof command
 * does (clean-stale-temps.ts), since the name carries the process stamp.
 */
export function scratchPath(label: string): { path: string; dispose: () => void } {
  const path = join(tmpdir(), `${SCRATCH_PREFIX}${stampText()}-${label}`);
  live.add(path);
  return {
    path,
    dispose: () => {
      rmSync(path, { recursive: true, force: true, maxRetries: 3 });
      live.delete(path);
    },
  };
}

/** Like scratchPath, created now. */
export function makeScratchDir(label: string): { path: string; dispose: () => void } {
  const s = scratchPath(label);
  mkdirSync(s.path, { recursive: true });
  return s;
}
