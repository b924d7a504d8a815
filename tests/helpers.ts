import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '@asof/cli';

export const REPO = fileURLToPath(new URL('..', import.meta.url));
export const SHARED = join(REPO, '..', 'shared');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the asof CLI in-process with the repository root as working directory. */
export async function asof(...argv: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    out: (t) => {
      stdout += t;
    },
    err: (t) => {
      stderr += t;
    },
    cwd: REPO,
  });
  return { code, stdout, stderr };
}

/** Runs the real `asof` bin in a child process (tsx startup included). */
export function asofBin(args: string[], env: NodeJS.ProcessEnv = process.env): CliRun {
  const r = spawnSync(process.execPath, [join(REPO, 'packages/cli/bin/asof.mjs'), ...args], {
    cwd: REPO,
    env,
    encoding: 'utf8',
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A fresh output folder under out/ (builds refuse folders outside the working directory). */
export function scratchOut(name: string): { abs: string; rel: string } {
  const abs = join(REPO, 'out', `test-${name}-${process.pid}`);
  rmSync(abs, { recursive: true, force: true });
  return { abs, rel: relative(REPO, abs) };
}
