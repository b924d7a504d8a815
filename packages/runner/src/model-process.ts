import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { InputError } from '@asof/schema';

/** Why the model stopped answering: it exited, or it took longer than the timeout. */
export type ModelFailure =
  | { kind: 'exited'; code: number | null; signal: string | null; stderr: string[] }
  | { kind: 'timeout'; seconds: number; stderr: string[] }
  | { kind: 'line-too-long'; maxLineBytes: number; stderr: string[] };

/** The model's program cannot be started (bad input, exit 2): `err` is the spawn error, or an access check's. */
export function modelNotStarted(program: string, err: NodeJS.ErrnoException): InputError {
  const why =
    err.code === 'ENOENT'
      ? 'no such program (not a path that exists, nor a command on PATH)'
      : err.code === 'EACCES'
        ? 'not executable'
        : err.message;
  return new InputError(
    'MODEL_COMMAND_NOT_STARTED',
    `--model: cannot start ${JSON.stringify(program)}: ${why}; give a program and its arguments, e.g. --model "python3 examples/python/ewma_model.py"`,
    { context: { value: program, errno: err.code } },
  );
}

/** A wrapper's status 128+N for a model killed by signal N, as Node reports a signal. */
function unwrapExit(
  code: number | null,
  signal: NodeJS.Signals | null,
): { code: number | null; signal: string | null } {
  if (code === null || code <= 128) return { code, signal };
  const name = Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0];
  return name ? { code: null, signal: name } : { code, signal };
}

/** Thrown by ModelProcess when the child cannot answer; the runner turns it into a ModelRunError naming what it waited for. */
export class ModelFailureSignal extends Error {
  constructor(readonly failure: ModelFailure) {
    super(failure.kind);
  }
}

export interface ModelProcessOptions {
  argv: readonly string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** The longest the model may take for one reply (and to read one message, and to exit after bye). */
  timeoutMs: number;
  /** The longest stdout line the model may write, in bytes (default DEFAULT_MAX_LINE_BYTES). */
  maxLineBytes?: number;
  /** The argv starts a wrapper (bubblewrap) that runs the model: it reports a model killed by signal N as 128+N. */
  wrapped?: boolean;
  /** Applied to each stderr line before it is relayed or kept for a failure message (secrets out). */
  scrub?: (line: string) => string;
  /** Each line the model writes to stderr (its log), as it comes. */
  onStderr?: (line: string) => void;
}

const STDERR_TAIL = 5;
/** The longest stderr line relayed whole (characters); a longer one is relayed in pieces of this size. */
const STDERR_PIECE = 64 * 1024;
/** The default cap on one reply line: far above the largest batch reply (500 pairs × 200 samples × a long horizon). */
export const DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024;
/**
 * How long the pipes may stay open after the model exited: a process it started may hold them (audit
 * 8.2c). Its group is killed at the exit; this bounds the wait for one that left the group.
 */
const PIPE_GRACE_MS = 2000;

/**
 * The model as a child process speaking newline-delimited JSON: `send` writes one line to its stdin
 * (waiting for the pipe to drain, within the timeout), `receive` waits for its next stdout line. The child
 * runs in a process group of its own so that a timeout or a failed run ends it and whatever it started;
 * the group is also killed if asof exits while it runs. No shell is involved.
 */
export class ModelProcess {
  private readonly lines: string[] = [];
  /** performance.now() when each queued line was complete (the model's answer time). */
  private readonly lineTimes: number[] = [];
  private parts: Buffer[] = [];
  private partBytes = 0;
  private tooLong = false;
  private waiter: (() => void) | null = null;
  private closed = false;
  private exit: { code: number | null; signal: string | null } | null = null;
  private readonly stderrTail: string[] = [];
  private stderrPart = '';
  private readonly killOnExit = () => this.kill();

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly options: ModelProcessOptions,
  ) {
    // Bytes, not text: the line cap counts bytes, and a newline byte never occurs inside a UTF-8 character.
    child.stdout.on('data', (chunk: Buffer) => this.onStdout(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => this.onStderr(chunk));
    // A model that exits early closes its stdin: the write fails with EPIPE; the exit is what is reported.
    child.stdin.on('error', () => {});
    // The exit, not the pipes' close, ends the conversation: what the model wrote before it exited is
    // still read, but a process it started that holds stdout open no longer keeps asof waiting.
    child.on('exit', (code, signal) => {
      this.exit = options.wrapped ? unwrapExit(code, signal) : { code, signal };
      this.killGroup();
      setTimeout(() => this.markClosed(), PIPE_GRACE_MS).unref();
    });
    child.on('close', (code, signal) => {
      this.exit ??= { code, signal };
      this.markClosed();
    });
    process.on('exit', this.killOnExit);
  }

  /** Starts the model; a program that does not exist or cannot be executed is bad input (exit 2). */
  static async start(options: ModelProcessOptions): Promise<ModelProcess> {
    const [program, ...args] = options.argv;
    const child = spawn(program, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (err: NodeJS.ErrnoException) => reject(modelNotStarted(program, err)));
    });
    return new ModelProcess(child, options);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  private get maxLineBytes(): number {
    return this.options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  /** The pipes are done (closed, or given up on after the exit): the last stderr line is kept. */
  private markClosed(): void {
    if (this.closed) return;
    if (this.stderrPart) this.pushStderr(this.stderrPart);
    this.stderrPart = '';
    this.closed = true;
    this.child.stdout.destroy();
    this.child.stderr.destroy();
    process.off('exit', this.killOnExit);
    this.wake();
  }

  private onStdout(chunk: Buffer): void {
    if (this.tooLong) return;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1) break;
      if (!this.addPart(chunk.subarray(start, nl))) return;
      this.lines.push(Buffer.concat(this.parts).toString('utf8'));
      this.lineTimes.push(performance.now());
      this.parts = [];
      this.partBytes = 0;
      start = nl + 1;
    }
    if (start < chunk.length) this.addPart(chunk.subarray(start));
    this.wake();
  }

  /**
   * Keeps part of the current line, or — past the cap — drops what was kept, stops the model and makes the
   * next wait fail: a line without end is never held whole (audit 8.3b: one 1 GiB line, 1.29 GB RSS).
   */
  private addPart(part: Buffer): boolean {
    this.partBytes += part.length;
    if (this.partBytes <= this.maxLineBytes) {
      this.parts.push(part);
      return true;
    }
    this.tooLong = true;
    this.parts = [];
    this.kill();
    this.wake();
    return false;
  }

  private onStderr(chunk: string): void {
    const text = this.stderrPart + chunk;
    const lines = text.split('\n');
    this.stderrPart = lines.pop() ?? '';
    for (const line of lines) this.pushStderr(line);
    // A log line without end is relayed in pieces, so stderr cannot fill memory as stdout could not.
    while (this.stderrPart.length > STDERR_PIECE) {
      this.pushStderr(this.stderrPart.slice(0, STDERR_PIECE));
      this.stderrPart = this.stderrPart.slice(STDERR_PIECE);
    }
  }

  private pushStderr(line: string): void {
    const clean = (this.options.scrub ?? ((l: string) => l))(line.replace(/\r$/, ''));
    this.options.onStderr?.(clean);
    if (clean.trim() === '') return;
    this.stderrTail.push(clean);
    if (this.stderrTail.length > STDERR_TAIL) this.stderrTail.shift();
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = null;
    w?.();
  }

  private failure(kind: 'exited' | 'timeout'): ModelFailureSignal {
    const stderr = [...this.stderrTail];
    if (this.tooLong) {
      return new ModelFailureSignal({ kind: 'line-too-long', maxLineBytes: this.maxLineBytes, stderr });
    }
    if (kind === 'timeout') {
      return new ModelFailureSignal({ kind, seconds: this.options.timeoutMs / 1000, stderr });
    }
    return new ModelFailureSignal({
      kind,
      code: this.exit?.code ?? null,
      signal: this.exit?.signal ?? null,
      stderr,
    });
  }

  /** Waits until `ready()` holds, the child has closed its pipes, or the timeout passes. */
  private async waitFor(ready: () => boolean): Promise<void> {
    const deadline = Date.now() + this.options.timeoutMs;
    while (!ready()) {
      if (this.closed || this.tooLong) throw this.failure('exited');
      const left = deadline - Date.now();
      if (left <= 0) throw this.failure('timeout');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** Writes one message line; waits (within the timeout) while the model has not read what was sent. */
  async send(line: string): Promise<void> {
    if (this.closed || this.tooLong || this.child.stdin.destroyed) throw this.failure('exited');
    const flushed = this.child.stdin.write(`${line}\n`);
    if (flushed) return;
    let drained = false;
    const onDrain = () => {
      drained = true;
      this.wake();
    };
    this.child.stdin.once('drain', onDrain);
    try {
      await this.waitFor(() => drained);
    } finally {
      this.child.stdin.off('drain', onDrain);
    }
  }

  /** The model's next stdout line (without the newline) and when it was complete (performance.now()). */
  async receive(): Promise<{ line: string; at: number }> {
    await this.waitFor(() => this.lines.length > 0);
    return { line: this.lines.shift()!, at: this.lineTimes.shift()! };
  }

  /** True when the model wrote more lines than were asked for. */
  hasPendingLines(): boolean {
    return this.lines.length > 0 || this.parts.length > 0;
  }

  /** Closes stdin (after bye) and waits for the model to exit; a non-zero status or a signal is a failure. */
  async finish(): Promise<{ code: number | null; signal: string | null }> {
    this.child.stdin.end();
    // Lines written after bye are ignored; the exit is what counts.
    await this.waitFor(() => this.closed);
    const exit = this.exit ?? { code: null, signal: null };
    if (exit.code !== 0) throw this.failure('exited');
    return exit;
  }

  /** Ends the model and everything it started (its process group). */
  kill(): void {
    if (this.closed || this.child.pid === undefined) return;
    this.killGroup();
    this.child.kill('SIGKILL');
  }

  /** Kills the model's process group: whatever it started, also after the model itself exited. */
  private killGroup(): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // The group is already gone.
    }
  }

  /** Kills the model if it still runs and waits for its pipes to close. */
  async dispose(): Promise<void> {
    if (this.closed) return;
    this.kill();
    const deadline = Date.now() + 5000;
    while (!this.closed && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }
}
