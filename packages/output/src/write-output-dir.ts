import { renameSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cleanStaleTemps } from './clean-stale-temps.ts';
import { cleanStore, switchLink } from './clean-store.ts';
import { faultPoint } from './fault-point.ts';
import { faultErrno, outputWriteError } from './output-io-error.ts';
import { OutputOperation } from './output-operation.ts';
import { type OutputOptions, planOutput } from './plan-output.ts';
import { generationName } from './store-layout.ts';

export interface OutputWork {
  /** The folder to write the output into (a temp folder until the switch). */
  dir: string;
  /** Scratch space inside it (DuckDB database, WAL and spill files), removed before the switch. */
  work: string;
  /** Registers another temp path (removed with the operation, or by the next command if this one is killed). */
  track: (path: string) => void;
}

export interface OutputDirOptions<T> extends OutputOptions {
  /** A label for the generation folder's name, from the finished value (e.g. its dataset_id). */
  label?: (value: T) => string;
  /** Runs after the output is complete and before the switch (e.g. re-check that the inputs did not change). */
  beforeSwitch?: (value: T) => void | Promise<void>;
  cwd?: string;
}

/**
 * Writes a folder output safely (docs/decisions/0010-output-safety.md): checks the path, takes its lock,
 * lets `produce` write into a temp folder, then switches the output path to the finished folder with one
 * rename of a symlink — at every instant the path shows the old output or the new one. On failure the
 * old output stays and the temp folder goes. Returns `produce`'s value and the output path.
 */
export async function writeOutputDir<T>(
  requested: string,
  options: OutputDirOptions<T>,
  produce: (work: OutputWork) => Promise<T>,
): Promise<{ value: T; path: string }> {
  cleanStaleTemps();
  const plan = planOutput(requested, 'dir', options, options.cwd);
  const op = new OutputOperation(plan, options.command);
  try {
    await faultPoint('output:started');
    const value = await produce({ dir: op.tmp, work: op.work, track: (p) => op.track(p) });
    faultErrno('output:produced', join(op.tmp, 'results.json'));
    await faultPoint('output:produced');
    rmSync(op.work, { recursive: true, force: true, maxRetries: 3 });
    await options.beforeSwitch?.(value);
    // What is at the path may have changed during the work: check again, just before the switch.
    const now = planOutput(requested, 'dir', options, options.cwd, { probe: false });
    await faultPoint('switch:before-generation');
    const generation = generationName(options.label?.(value));
    renameSync(op.tmp, join(plan.store, generation));
    await faultPoint('switch:before-link');
    if (now.state.state === 'empty') rmdirSync(plan.target);
    else if (now.state.state === 'asof-dir') {
      // A folder written before generations existed: kept as a generation of its own until the link is in.
      renameSync(plan.target, join(plan.store, generationName('previous')));
      await faultPoint('switch:moved-previous');
    }
    switchLink(plan.store, plan.target, generation);
    await faultPoint('switch:before-cleanup');
    cleanStore(plan.store, plan.target, true);
    return { value, path: plan.target };
  } catch (err) {
    op.abort();
    throw outputWriteError(err, op.tmp, plan.requested);
  } finally {
    op.end();
  }
}
