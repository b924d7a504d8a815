import { readFileSync } from 'node:fs';

/**
 * A process as asof names it in temp paths and lock files: its pid and its start time (clock ticks since
 * boot, field 22 of /proc/<pid>/stat). The start time tells a live process from a later one that reuses a
 * dead one's pid, so a stale temp path is never mistaken for a live one's (or the other way round).
 */
export interface ProcessStamp {
  pid: number;
  /** 0 where /proc is not available (then only the pid is compared). */
  start: number;
}

function startTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is parenthesised and may hold spaces or parentheses: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[19]);
  } catch {
    return null;
  }
}

let own: ProcessStamp | undefined;

/** This process's stamp. */
export function processStamp(): ProcessStamp {
  if (!own) own = { pid: process.pid, start: startTicks(process.pid) ?? 0 };
  return own;
}

/** The stamp as it appears in file names: `<pid>-<start>`. */
export function stampText(stamp: ProcessStamp = processStamp()): string {
  return `${stamp.pid}-${stamp.start}`;
}

/** Parses `<pid>-<start>` at the start of `text` (the rest is ignored); null when it does not match. */
export function parseStamp(text: string): ProcessStamp | null {
  const m = /^(\d+)-(\d+)(?:-|$)/.exec(text);
  return m ? { pid: Number(m[1]), start: Number(m[2]) } : null;
}

/** Is the process that made `stamp` still running? */
export function isProcessAlive(stamp: ProcessStamp): boolean {
  const me = processStamp();
  if (stamp.pid === me.pid) return stamp.start === me.start || stamp.start === 0 || me.start === 0;
  const ticks = startTicks(stamp.pid);
  if (ticks !== null) return stamp.start === 0 || ticks === stamp.start;
  if (existsProc()) return false;
  try {
    process.kill(stamp.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

let procMounted: boolean | undefined;
function existsProc(): boolean {
  if (procMounted === undefined) procMounted = startTicks(process.pid) !== null;
  return procMounted;
}
