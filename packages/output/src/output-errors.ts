import { AsofError, InputError } from '@asof/schema';

/** The output path cannot be used: it holds what asof did not write, overlaps an input, or is the wrong kind. */
export class OutputRefusedError extends InputError {}

/** Another asof process is writing the same output right now. */
export class OutputBusyError extends AsofError {
  constructor(message: string, context: Record<string, unknown>) {
    super('OUTPUT_BUSY', message, { context, exitCode: 1 });
  }
}
