/**
 * Base class for every error asof raises on purpose. `code` is stable (tests and callers switch on it),
 * `context` names the file/row/field/value involved, and the message says actual vs expected and the fix.
 */
export class AsofError extends Error {
  readonly code: string;
  readonly context: Record<string, unknown>;
  /** Process exit code the CLI uses for this error: 2 = bad input/usage, 1 = failure while running. */
  readonly exitCode: number;

  constructor(
    code: string,
    message: string,
    options: { context?: Record<string, unknown>; cause?: unknown; exitCode?: number } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.context = options.context ?? {};
    this.exitCode = options.exitCode ?? 1;
  }
}

/** Bad input: a file, row or field that does not meet the contract. Exit code 2. */
export class InputError extends AsofError {
  constructor(
    code: string,
    message: string,
    options: { context?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(code, message, { ...options, exitCode: 2 });
  }
}

/** An error as a worker thread posts it back: what the main thread needs to raise it again. */
export interface WorkerErrorReply {
  code?: string;
  exitCode: number;
  context?: Record<string, unknown>;
  message: string;
}

/**
 * An error thrown in a worker thread, as it crosses postMessage: an AsofError keeps its code, exit code and
 * context (a LookaheadError stays LOOKAHEAD); anything else is a failure (exit 1) with its message.
 */
export function workerErrorReply(err: unknown): WorkerErrorReply {
  const known = err instanceof AsofError;
  return {
    code: known ? err.code : undefined,
    exitCode: known ? err.exitCode : 1,
    context: known ? err.context : undefined,
    message: err instanceof Error ? err.message : String(err),
  };
}

/** The worker's error raised again in the main thread; `fallbackCode` for an error that had none. */
export function rebuiltWorkerError(reply: WorkerErrorReply, fallbackCode: string): AsofError {
  return new AsofError(reply.code ?? fallbackCode, reply.message, {
    exitCode: reply.exitCode,
    context: reply.context ?? {},
  });
}
