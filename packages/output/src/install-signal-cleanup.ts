import { rmSync } from 'node:fs';
import { Script } from 'node:vm';
import { activeOperations } from './output-operation.ts';
import { liveScratchPaths } from './scratch-dir.ts';

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
type Signal = keyof typeof EXIT_CODES;

let installed: ((signal: Signal) => void) | null = null;
const hooks = new Set<() => void>();

/**
 * Registers what to stop first when a signal comes (e.g. a DuckDB connection's running query, which would
 * otherwise go on writing into a temp folder being removed). Returns the function that unregisters it.
 */
export function onInterrupt(hook: () => void): () => void {
  hooks.add(hook);
  return () => hooks.delete(hook);
}

/**
 * On SIGINT or SIGTERM, stops running DuckDB queries, removes this process's temp folders and scratch paths
 * and releases its output locks, then exits with 130 or 143: the old outputs stay as they were. Installed
 * once by the `asof` bin (not by library callers, whose process may have handlers of their own).
 *
 * A handler runs only when the event loop does: during a DuckDB query it does (queries run on other
 * threads), during long synchronous JavaScript it does not — that is what runInterruptibly is for.
 */
export function installSignalCleanup(log: (line: string) => void = () => {}): void {
  if (installed) return;
  const cleanUpAndExit = (signal: Signal): never => {
    for (const hook of hooks) {
      try {
        hook();
      } catch {
        // Best effort: the process exits next anyway.
      }
    }
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
    process.exit(EXIT_CODES[signal]);
  };
  installed = cleanUpAndExit;
  for (const signal of Object.keys(EXIT_CODES) as Signal[]) process.on(signal, listenerOf(signal));
}

const listeners = new Map<Signal, () => void>();
function listenerOf(signal: Signal): () => void {
  let l = listeners.get(signal);
  if (!l) {
    l = () => installed?.(signal);
    listeners.set(signal, l);
  }
  return l;
}

const FN = Symbol.for('asof.runInterruptibly');
// Node's vm runs a script with a watchdog thread that stops it at SIGINT even while it never yields
// (the REPL's Ctrl-C): the one way to interrupt synchronous JavaScript from outside it.
const CALL = new Script(`globalThis[Symbol.for('asof.runInterruptibly')]()`);
let depth = 0;

/** Two turns of the event loop: a signal that came while JavaScript ran is dispatched to its listener. */
async function dispatchPendingSignals(): Promise<void> {
  for (let i = 0; i < 2; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * Runs synchronous work that may take seconds (a source generating or parsing its rows) so that a signal
 * still acts at once (audit 1.9: Ctrl-C took 14 s during a build's sources). SIGINT stops the work where it
 * is and runs the same cleanup as the handler (exit 130). SIGTERM, which no watchdog can catch, gets its
 * default action meanwhile: the process ends at once (143) and the next asof command removes its temp
 * paths from the registry, as after a kill. Without installSignalCleanup (a library caller) it is `fn()`.
 *
 * It first lets the event loop turn: vm takes the SIGINT listeners off for the run (and this takes the
 * SIGTERM one), and Node drops a signal still waiting for a listener that is taken off, so one that came
 * during the JavaScript before (a forecasts file decoded) must be dispatched first.
 */
export async function runInterruptibly<T>(fn: () => T): Promise<T> {
  if (!installed || depth > 0) return fn();
  await dispatchPendingSignals();
  const cleanUpAndExit = installed;
  const g = globalThis as unknown as Record<symbol, unknown>;
  g[FN] = fn;
  depth++;
  const term = listenerOf('SIGTERM');
  process.removeListener('SIGTERM', term);
  try {
    return CALL.runInThisContext({ breakOnSigint: true }) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException)?.code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED') cleanUpAndExit('SIGINT');
    throw err;
  } finally {
    depth--;
    delete g[FN];
    process.on('SIGTERM', term);
  }
}
