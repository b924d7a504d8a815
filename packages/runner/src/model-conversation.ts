import { ModelFailureSignal, ModelProcess, type ModelProcessOptions } from './model-process.ts';
import { ModelRunError } from './model-run-error.ts';

/** The last stderr line of the model, for a one-line failure message. */
function stderrHint(stderr: readonly string[]): string {
  const last = stderr.at(-1);
  if (!last) return 'it wrote nothing to stderr';
  const one = last.trim();
  return `its last stderr line: ${JSON.stringify(one.length > 160 ? `${one.slice(0, 160)}…` : one)}`;
}

/**
 * The runner's side of the exchange: every send and receive names what it is for (`where`: the phase,
 * or the batch with its origin and series), so a model that exits or stops answering fails the run with
 * one line saying when. It also sums the time spent waiting for the model (send done → answer complete).
 */
export class ModelConversation {
  modelMs = 0;
  private sentAt = 0;

  private constructor(
    private readonly process: ModelProcess,
    private readonly timeoutSeconds: number,
  ) {}

  static async start(options: ModelProcessOptions): Promise<ModelConversation> {
    return new ModelConversation(await ModelProcess.start(options), options.timeoutMs / 1000);
  }

  private failed(err: unknown, where: string): unknown {
    if (!(err instanceof ModelFailureSignal)) return err;
    const f = err.failure;
    if (f.kind === 'timeout') {
      return new ModelRunError(
        'MODEL_TIMEOUT',
        `${where}: no answer within --timeout-s ${this.timeoutSeconds}; the model was stopped (${stderrHint(f.stderr)}); raise --timeout-s if it is only slow`,
        { context: { timeout_s: this.timeoutSeconds } },
      );
    }
    if (f.kind === 'line-too-long') {
      const mb = f.maxLineBytes / (1024 * 1024);
      return new ModelRunError(
        'MODEL_LINE_TOO_LONG',
        `${where}: the model wrote a stdout line longer than the cap of ${mb} MiB (--max-line-mb ${mb}) and was stopped; write one JSON message per line, or raise the cap with --max-line-mb N`,
        { context: { max_line_bytes: f.maxLineBytes } },
      );
    }
    const how = f.signal ? `was killed by ${f.signal}` : `exited with status ${f.code}`;
    return new ModelRunError('MODEL_EXITED', `${where}: the model ${how}; ${stderrHint(f.stderr)}`, {
      context: { code: f.code, signal: f.signal },
    });
  }

  async send(line: string, where: string): Promise<void> {
    try {
      await this.process.send(line);
    } catch (err) {
      throw this.failed(err, where);
    }
    this.sentAt = performance.now();
  }

  /** Sends a line without starting the clock (fit lines: the model answers only after fit_end). */
  async stream(line: string, where: string): Promise<void> {
    try {
      await this.process.send(line);
    } catch (err) {
      throw this.failed(err, where);
    }
  }

  async receive(where: string): Promise<string> {
    try {
      const { line, at } = await this.process.receive();
      this.modelMs += Math.max(0, at - this.sentAt);
      return line;
    } catch (err) {
      throw this.failed(err, where);
    }
  }

  /** True when the model wrote a line nobody asked for. */
  hasUnaskedLines(): boolean {
    return this.process.hasPendingLines();
  }

  /** After bye: the model must exit with status 0 within the timeout. */
  async finish(where: string): Promise<void> {
    try {
      await this.process.finish();
    } catch (err) {
      throw this.failed(err, where);
    }
  }

  async dispose(): Promise<void> {
    await this.process.dispose();
  }
}
