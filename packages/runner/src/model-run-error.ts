import { AsofError } from '@asof/schema';

/**
 * The model failed the run: it sent an error, a malformed or wrong reply, a non-finite value, took longer
 * than the timeout, or exited. Exit 1 (the split is fine; the model is not). The message is one line naming
 * the phase, and for a predict batch its origin and series.
 */
export class ModelRunError extends AsofError {
  constructor(
    code: string,
    message: string,
    options: { context?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(code, message, { ...options, exitCode: 1 });
  }
}
