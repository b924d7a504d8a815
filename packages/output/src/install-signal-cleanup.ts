import { rmSync } from 'node:fs';
import { activeOperations } from './output-operation.ts';
import { liveScratchPaths } from './scratch-dir.ts';

let installed = false;

/**
 * On SIGINT or SIGTERM, removes this process's temp folders and scratch paths and releases its output
 * locks, then exits with 130 or 143: the old outputs stay as they were. Installed once by the `asof` bin
 * (not by library callers, whose process may have handlers of its own).
 */
export function installSignalCleanup(log: (line: string) => void = () => {}): void {
  if (installed) return;
  installed = true;
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.on(signal, () => {
      for (const op of activeOperations()) {
        try {
          op.abort();
          op.end();
        } catch {
          // Best effort: whatever is left, the next asof command removes.
        }
      }
      for (const p of liveScratchPaths()) rmSync(p, { recursive: true, force: true });
      log(`interrupted by ${signal}; temp files removed, earlier outputs unchanged`);
      process.exit(code);
    });
  }
}
