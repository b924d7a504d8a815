import { renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { cleanStaleTemps } from './clean-stale-temps.ts';
import { faultPoint } from './fault-point.ts';
import { OutputRefusedError } from './output-errors.ts';
import { faultErrno, outputWriteError } from './output-io-error.ts';
import { OutputOperation } from './output-operation.ts';
import { type OutputOptions, planOutput } from './plan-output.ts';
import { resolveRealPath } from './resolve-real-path.ts';

export interface OutputFileOptions extends OutputOptions {
  /** Files listed by the manifests the command read: the output never overwrites one. */
  protectedFiles?: readonly string[];
  beforeSwitch?: () => void | Promise<void>;
  cwd?: string;
}

/**
 * Writes a single-file output safely: `produce` writes `file` (a temp path in the output's store, same
 * folder tree, so the final rename is atomic), then one rename replaces the output. An existing file is
 * replaced only when asof wrote it (a Parquet file with the asof key-value entry) and no manifest the
 * command read lists it.
 */
export async function writeOutputFile<T>(
  requested: string,
  options: OutputFileOptions,
  produce: (work: { file: string; work: string; track: (path: string) => void }) => Promise<T>,
): Promise<{ value: T; path: string }> {
  cleanStaleTemps();
  const plan = planOutput(requested, 'file', options, options.cwd);
  const flag = options.flag ?? '--out';
  for (const listed of options.protectedFiles ?? []) {
    if (resolveRealPath(listed) === resolveRealPath(plan.target)) {
      throw new OutputRefusedError(
        'OUTPUT_IS_INPUT',
        `${flag} ${requested} is ${listed}, a file listed by a manifest this command reads; write the output elsewhere`,
        { context: { file: plan.target, value: requested } },
      );
    }
  }
  const op = new OutputOperation(plan, options.command);
  try {
    const file = join(op.tmp, basename(plan.target));
    await faultPoint('output:started');
    const value = await produce({ file, work: op.work, track: (p) => op.track(p) });
    faultErrno('output:produced', file);
    await faultPoint('output:produced');
    rmSync(op.work, { recursive: true, force: true, maxRetries: 3 });
    await options.beforeSwitch?.();
    planOutput(requested, 'file', options, options.cwd, { probe: false });
    await faultPoint('switch:before-rename');
    renameSync(file, plan.target);
    await faultPoint('switch:before-cleanup');
    return { value, path: plan.target };
  } catch (err) {
    op.abort();
    throw outputWriteError(err, op.tmp, plan.requested);
  } finally {
    op.end();
  }
}
