/**
 * The one clock every progress line of a command is stamped from (issue 51 item 7: `asof score` read its
 * inputs for 22 s before its own clock started, and showed 12 s of a 36–40 s run). Its origin is the
 * process's start (performance.now() counts from it) until a command starts it: the CLI passes the
 * process start, so module loading counts too; a caller running several commands in one process starts
 * it per command.
 */
let origin = 0;

/** Starts the clock at `at` (performance.now() milliseconds; default now). */
export function startCommandClock(at: number = performance.now()): void {
  origin = at;
}

/** Seconds since the command started. */
export function commandSeconds(): number {
  return (performance.now() - origin) / 1000;
}

/** `[12.3s]`: the prefix of a progress line. */
export function elapsedStamp(): string {
  return `[${commandSeconds().toFixed(1)}s]`;
}
