import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '@asof/cli';
import { expect, inject } from 'vitest';

export const REPO = fileURLToPath(new URL('..', import.meta.url));
export const SHARED = join(REPO, '..', 'shared');

/**
 * The run's scratch folder, outside the checkout (global-setup.ts makes it and removes it at the end): tests
 * never write into the repository's out/, which is the user's (issue 50). Outside vitest (a script importing
 * these helpers) a fresh temporary folder.
 */
export const SCRATCH: string = (() => {
  let root: string | undefined;
  try {
    root = inject('scratchRoot');
  } catch {
    root = undefined;
  }
  if (root === undefined) root = mkdtempSync(join(tmpdir(), 'asof-tests-'));
  mkdirSync(root, { recursive: true });
  return root;
})();

// asof's state folder (the registry of running operations, the scorer's baselines cache) inside the run's
// scratch folder, not the user's; a file that needs its own sets it after importing this.
process.env.ASOF_STATE_DIR ??= join(SCRATCH, 'state');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the asof CLI in-process with the repository root as working directory. */
export function asof(...argv: string[]): Promise<CliRun> {
  return asofIn(REPO, ...argv);
}

/** Runs the asof CLI in-process with `cwd` as the working directory. */
export async function asofIn(cwd: string, ...argv: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    out: (t) => {
      stdout += t;
    },
    err: (t) => {
      stderr += t;
    },
    cwd,
  });
  return { code, stdout, stderr };
}

/**
 * A small pipeline (a dozen synthetic instruments, two synthetic ALFRED series) written to `dir/tiny.json`:
 * a universe with eval targets, segments, a split, baselines and a score in a few seconds each.
 */
export function writeTinyPipeline(dir: string, name = 'tiny'): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      name,
      eval_start: '2020-01-01',
      sources: {
        embedded: {
          real: { sp500: false, stocks: false, us_employment: false, unemployment_by_industry: false },
          synthetic: { seed: 7, start: '2015-01-02', end: '2021-12-31', instruments: 12 },
        },
        fred: { synthetic: { seed: 7, start: '2012-01-01', end: '2021-12-31', count: 2 } },
      },
    }),
  );
  return path;
}

/** Runs the real `asof` bin in a child process (its start-up included: the bundle, or tsx; docs 0038). */
export function asofBin(args: string[], env: NodeJS.ProcessEnv = process.env): CliRun {
  const r = spawnSync(process.execPath, [join(REPO, 'packages/cli/bin/asof.mjs'), ...args], {
    cwd: REPO,
    env,
    encoding: 'utf8',
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Builds `pipeline` into `out` with the real bin (a child process under `env`) and returns its dataset_id and
 * each output file's path and sha256, one per line: equal strings mean byte-identical builds.
 */
export function binBuildFingerprint(pipeline: string, out: string, env: NodeJS.ProcessEnv): string {
  const r = asofBin(['build', pipeline, '--out', out, '--json'], env);
  expect(r.stderr).not.toMatch(/unexpected failure/);
  expect(r.code).toBe(0);
  const { manifest } = JSON.parse(r.stdout) as { manifest: string };
  const m = JSON.parse(readFileSync(manifest, 'utf8')) as {
    dataset_id: string;
    outputs: { path: string; sha256: string }[];
  };
  return [m.dataset_id, ...m.outputs.map((o) => `${o.path} ${o.sha256}`)].join('\n');
}

/**
 * Removes an output asof wrote: the path (a symlink to its current generation) and its store
 * `<parent>/.asof/<name>` (docs/decisions/0010-output-safety.md).
 */
export function removeOutput(abs: string): void {
  rmSync(abs, { recursive: true, force: true });
  rmSync(join(dirname(abs), '.asof', basename(abs)), { recursive: true, force: true });
}

/** A fresh output path in the run's scratch folder; `rel` is relative to the repository (the CLI's cwd here). */
export function scratchOut(name: string): { abs: string; rel: string } {
  const abs = join(SCRATCH, `test-${name}-${process.pid}`);
  removeOutput(abs);
  return { abs, rel: relative(REPO, abs) };
}

/** Every entry under `dir` with the sha256 of its bytes (symlinks by their text), for byte-identity checks. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, prefix: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const rel = `${prefix}${e.name}`;
      if (e.isSymbolicLink()) out[rel] = `-> ${readlinkSync(p)}`;
      else if (e.isDirectory()) {
        out[rel] = 'dir';
        walk(p, `${rel}/`);
      } else out[rel] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir, '');
  return out;
}
