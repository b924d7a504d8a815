import type { Io } from './commands.ts';

/**
 * The one-line "next:" hint every command ends with on stderr: the command a newcomer would run next
 * (README "Your first benchmark"). On stderr so that stdout stays the command's result (tables, --json).
 */
export function nextHint(io: Io, command: string): void {
  io.err(`next: ${command}\n`);
}
