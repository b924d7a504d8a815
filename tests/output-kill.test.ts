import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, writeTinyPipeline } from './helpers.ts';

// Kill tests (issue 15): each writing command is SIGKILLed at five points of its run — in the middle of
// the work and between the steps of the switch — and interrupted once with SIGINT. After each, the path
// still shows a complete output that verifies; after the next asof command (any: `verify` here) no temp
// path is left anywhere (the output's store, beside it, the system temp folder, the registry); and a rerun
// after the last kill of each command gives the same dataset_id. Each child gets its own TMPDIR and state folder, so "nothing left" is exact.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'asof-kill-')));
const state = join(work, '.state');
const systmp = join(work, '.systmp');
mkdirSync(systmp);
const BIN = join(REPO, 'packages/cli/bin/asof.mjs');

interface Child {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

function runChild(
  args: string[],
  env: Record<string, string> = {},
  onSpawn?: (pid: number) => void,
): Promise<Child> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: work,
      env: { ...process.env, ASOF_STATE_DIR: state, TMPDIR: systmp, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    if (onSpawn && child.pid) onSpawn(child.pid);
    child.on('exit', (code, signal) => done({ code, signal, stderr }));
  });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const manifestId = (path: string) => JSON.parse(readFileSync(path, 'utf8')).dataset_id as string;

/** Every leftover temp path: anything in a store but its generations, scratch in TMPDIR, registry entries. */
function leftovers(): string[] {
  const out: string[] = [];
  const store = join(work, 'out', '.asof');
  if (existsSync(store)) {
    for (const name of readdirSync(store)) {
      // The marker that makes the folder asof's (docs/decisions/0051): not a temp path.
      if (name === '.asof-store') continue;
      const entries = readdirSync(join(store, name));
      const gens = entries.filter((e) => e.startsWith('gen-'));
      for (const e of entries) if (!e.startsWith('gen-')) out.push(`out/.asof/${name}/${e}`);
      if (gens.length > 1) out.push(`out/.asof/${name}: ${gens.length} generations`);
    }
  }
  for (const e of readdirSync(join(work, 'out')))
    if (/tmp|\.old-|\.duckdb|\.wal/.test(e)) out.push(`out/${e}`);
  // tsx (which runs asof's TypeScript) keeps its compile cache in TMPDIR: not a temp path of asof's.
  for (const e of readdirSync(systmp)) if (!e.startsWith('tsx-')) out.push(`TMPDIR/${e}`);
  if (existsSync(join(state, 'running')))
    for (const e of readdirSync(join(state, 'running'))) out.push(`registry/${e}`);
  return out;
}

let pipeline: string;
const cmd: Record<string, string[]> = {};
const output: Record<string, string> = {};

beforeAll(async () => {
  pipeline = writeTinyPipeline(work);
  cmd.build = ['build', pipeline, '--out', 'out/u'];
  cmd.split = ['split', '--manifest', 'out/u/manifest.json', '--out', 'out/s'];
  cmd.baselines = ['baselines', '--manifest', 'out/s/manifest.json', '--out', 'out/b.parquet'];
  cmd.score = [
    'score',
    '--manifest',
    'out/s/manifest.json',
    '--forecasts',
    'out/b.parquet',
    '--universe',
    'out/u/manifest.json',
    '--out',
    'out/score',
  ];
  for (const name of ['build', 'split', 'baselines', 'score']) {
    const r = await runChild(cmd[name]);
    expect(r.code, `${name}: ${r.stderr}`).toBe(0);
  }
  output.build = join(work, 'out/u/manifest.json');
  output.split = join(work, 'out/s/manifest.json');
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What must hold of the previous output after an interruption: readable, verified, unchanged in substance. */
async function expectOutputIntact(name: string, expected: string): Promise<void> {
  if (name === 'build' || name === 'split') {
    expect(manifestId(output[name])).toBe(expected);
    const v = await runChild(['verify', output[name]]);
    expect(v.code, v.stderr).toBe(0);
  } else if (name === 'baselines') {
    expect(sha256(readFileSync(join(work, 'out/b.parquet')))).toBe(expected);
  } else {
    // results.json and leaderboard.md come from one run: they switch together.
    const results = JSON.parse(readFileSync(join(work, 'out/score/results.json'), 'utf8'));
    const board = readFileSync(join(work, 'out/score/leaderboard.md'), 'utf8');
    expect(`${results.dataset_id}|${results.config_sha256}`).toBe(expected);
    expect(board).toContain(results.dataset_id);
  }
}

function fingerprint(name: string): string {
  if (name === 'build' || name === 'split') return manifestId(output[name]);
  if (name === 'baselines') return sha256(readFileSync(join(work, 'out/b.parquet')));
  const results = JSON.parse(readFileSync(join(work, 'out/score/results.json'), 'utf8'));
  return `${results.dataset_id}|${results.config_sha256}`;
}

const DIR_POINTS = [
  'run:midway',
  'output:produced',
  'switch:before-generation',
  'switch:before-link',
  'switch:before-cleanup',
];
const FILE_POINTS = [
  'output:started',
  'run:midway',
  'output:produced',
  'switch:before-rename',
  'switch:before-cleanup',
];

describe.each(['build', 'split', 'baselines', 'score'])('kills during asof %s', (name) => {
  const points = name === 'baselines' ? FILE_POINTS : DIR_POINTS;
  it.each(points)(
    'SIGKILL at %s leaves the previous output; the next command clears the rest',
    async (point) => {
      const before = fingerprint(name);
      const killed = await runChild(cmd[name], { ASOF_FAULT: point });
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      await expectOutputIntact(name, before);
      const next = await runChild(['verify', output.build]);
      expect(next.code, next.stderr).toBe(0);
      expect(leftovers()).toEqual([]);
      // Each kill leaves the same state (the previous output intact and verified, no temp path left, both
      // checked above), so one rerun per command, after its last fault point, checks what a rerun after each
      // would, once (issue 50): it succeeds and gives the same output.
      if (point !== points[points.length - 1]) return;
      const rerun = await runChild(cmd[name]);
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(fingerprint(name)).toBe(before);
      expect(leftovers()).toEqual([]);
    },
    120_000,
  );

  it('SIGINT in the middle removes its temp paths itself and exits 130', async () => {
    const before = fingerprint(name);
    const ready = join(work, `ready-${name}`);
    let pid = 0;
    const running = runChild(cmd[name], { ASOF_FAULT: 'run:midway:pause', ASOF_FAULT_READY: ready }, (p) => {
      pid = p;
    });
    for (let i = 0; i < 600 && !existsSync(ready); i++) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(ready)).toBe(true);
    process.kill(pid, 'SIGINT');
    const r = await running;
    rmSync(ready);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/interrupted by SIGINT; temp files removed/);
    await expectOutputIntact(name, before);
    expect(leftovers()).toEqual([]);
  }, 120_000);
});
