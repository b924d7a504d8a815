import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asofIn, REPO, SHARED, snapshot, writeTinyPipeline } from './helpers.ts';

// Issue 15 "Never lose a user's data": every case found by a new user and an adversarial tester, each now
// refused with exit 2 (user files byte-identical) or written where it belongs (docs/decisions/0010).
const work = realpathSync(mkdtempSync(join(tmpdir(), 'asof-safety-')));
const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), 'asof-safety-elsewhere-')));
process.env.ASOF_STATE_DIR = join(work, '.state');
let pipeline: string;
const run = (...argv: string[]) => asofIn(work, ...argv);

function userFolder(name: string, files: Record<string, string>): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  return dir;
}

beforeAll(async () => {
  pipeline = writeTinyPipeline(work);
  for (const [argv, what] of [
    [['build', pipeline, '--out', 'out/u'], 'build'],
    [['split', '--manifest', 'out/u/manifest.json', '--out', 'out/s'], 'split'],
    [['baselines', '--manifest', 'out/s/manifest.json', '--out', 'out/b.parquet'], 'baselines'],
  ] as const) {
    const r = await run(...argv);
    expect(r.code, `${what}: ${r.stderr}`).toBe(0);
  }
}, 300_000);
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});

async function expectRefused(argv: string[], code: string | RegExp, protect: string[]): Promise<string> {
  const before = protect.map(snapshot);
  const r = await run(...argv);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).not.toMatch(/unexpected failure|\n\s+at /);
  expect(r.stderr).toMatch(code);
  protect.forEach((dir, i) => {
    expect(snapshot(dir)).toEqual(before[i]);
  });
  return r.stderr;
}

describe('an output never replaces what asof did not write', () => {
  it('build --out docs keeps docs/thesis.md', async () => {
    const docs = userFolder('docs', { 'thesis.md': '# my thesis' });
    const msg = await expectRefused(['build', pipeline, '--out', 'docs'], /asof did not write/, [docs]);
    expect(msg).toContain('thesis.md');
  });

  it('build --out .git keeps the repository', async () => {
    const git = userFolder('.git', { HEAD: 'ref: refs/heads/main\n', 'objects/ab/cdef': 'x' });
    await expectRefused(['build', pipeline, '--out', '.git'], /asof did not write/, [git]);
  });

  it('split --out docs2 keeps docs2/keep.md', async () => {
    const docs2 = userFolder('docs2', { 'keep.md': 'keep me' });
    await expectRefused(
      ['split', '--manifest', 'out/u/manifest.json', '--out', 'docs2'],
      /asof did not write/,
      [docs2],
    );
  });

  it("build --out <another universe's data file> leaves that universe intact", async () => {
    await expectRefused(
      ['build', pipeline, '--out', 'out/u/observations/frequency=BD/data.parquet'],
      /OUTPUT|--out .*(a file|inside an output asof wrote)/,
      [join(work, 'out')],
    );
    expect((await run('verify', 'out/u/manifest.json')).code).toBe(0);
  });

  it('export fintsb --out <its own parent universe> is refused', async () => {
    await expectRefused(
      [
        'export',
        'fintsb',
        '--manifest',
        'out/u/manifest.json',
        '--out',
        'out/u',
        '--k',
        '1',
        '--datasets',
        '1',
      ],
      /which this command reads/,
      [join(work, 'out')],
    );
  });

  it("baselines --out SPLIT/inputs.parquet leaves the split's input alone", async () => {
    await expectRefused(
      ['baselines', '--manifest', 'out/s/manifest.json', '--out', 'out/s/inputs.parquet'],
      /which this command reads|inside an output asof wrote|listed by a manifest/,
      [join(work, 'out')],
    );
    expect((await run('verify', 'out/s/manifest.json')).code).toBe(0);
  });

  it('a symlinked parent is followed and checked where it leads', async () => {
    const target = join(elsewhere, 'data');
    mkdirSync(join(target, 'sub'), { recursive: true });
    writeFileSync(join(target, 'keep.md'), 'keep');
    writeFileSync(join(target, 'sub', 'notes.md'), 'notes');
    mkdirSync(join(work, 'links'), { recursive: true });
    symlinkSync(target, join(work, 'links', 'ext'));
    await expectRefused(['build', pipeline, '--out', 'links/ext'], /asof did not write/, [target]);
    await expectRefused(['build', pipeline, '--out', 'links/ext/sub'], /asof did not write/, [target]);
    // A new folder through the link is written where the link leads (a data disk), beside the user's files.
    const r = await run('build', pipeline, '--out', 'links/ext/fresh');
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(join(target, 'fresh')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(target, 'keep.md'), 'utf8')).toBe('keep');
    expect(readFileSync(join(target, 'sub', 'notes.md'), 'utf8')).toBe('notes');
  });

  it('--out naming an existing file is refused for a folder output', async () => {
    writeFileSync(join(work, 'notes.txt'), 'mine');
    await expectRefused(['build', pipeline, '--out', 'notes.txt'], /OUTPUT_IS_FILE|a file/, [work]);
  });

  it('report replaces only a report asof wrote, never inside what it reads', async () => {
    writeFileSync(join(work, 'mine.html'), '<p>my page</p>');
    await expectRefused(
      ['report', '--manifest', 'out/u/manifest.json', '--out', 'mine.html'],
      /asof did not write/,
      [work],
    );
    await expectRefused(
      ['report', '--manifest', 'out/u/manifest.json', '--out', 'out/u/report.html'],
      /which this command reads/,
      [join(work, 'out')],
    );
    for (let i = 0; i < 2; i++) {
      const r = await run('report', '--manifest', 'out/s/manifest.json', '--out', 'reports/s.html');
      expect(r.code, r.stderr).toBe(0);
    }
  }, 120_000);

  it('the pipeline, a raw folder and the cache are inputs: the output may not overlap them', async () => {
    mkdirSync(join(work, 'pipes'), { recursive: true });
    const p = writeTinyPipeline(join(work, 'pipes'), 'inner');
    const r = await run('build', p, '--out', 'pipes');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/asof did not write|which this command reads/);
    expect(existsSync(p)).toBe(true);
  });
});

describe('paths and errors a user can cause', () => {
  it("a pipeline's relative paths stay inside its folder", async () => {
    mkdirSync(join(work, 'pipes2'), { recursive: true });
    const p = join(work, 'pipes2', 'escape.json');
    writeFileSync(p, JSON.stringify({ name: 'escape', sources: { fred: { raw_dir: '../../etc' } } }));
    const r = await run('build', p, '--out', 'out/escape');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/sources\.fred\.raw_dir "\.\.\/\.\.\/etc" leaves the pipeline's folder/);
    expect(existsSync(join(work, 'out', 'escape'))).toBe(false);
  });

  it('taxonomy --coverage of a split, and verify of a listed file replaced by a folder, are one-line errors', async () => {
    const cov = await run('taxonomy', '--coverage', 'out/s/manifest.json');
    expect(cov.code).toBe(2);
    expect(cov.stderr).toMatch(/manifest kind is 'split'; asof taxonomy --coverage reads a universe/);
    const copy = join(work, 'copy-of-s');
    cpSync(join(work, 'out', 's'), copy, { recursive: true, dereference: true });
    rmSync(join(copy, 'origins.parquet'));
    mkdirSync(join(copy, 'origins.parquet'));
    const v = await run('verify', join(copy, 'manifest.json'));
    expect(v.code).toBe(1);
    expect(v.stderr).toMatch(/origins\.parquet: not a file/);
    expect(v.stderr).not.toMatch(/unexpected failure|\n\s+at /);
  });

  it('a second command writing the same output fails at once with one line naming the first', async () => {
    const ready = join(work, 'ready-lock');
    const child = spawn(
      process.execPath,
      [join(REPO, 'packages/cli/bin/asof.mjs'), 'build', pipeline, '--out', 'out/locked'],
      {
        cwd: work,
        env: { ...process.env, ASOF_FAULT: 'run:midway:pause', ASOF_FAULT_READY: ready },
        stdio: 'ignore',
      },
    );
    try {
      for (let i = 0; i < 600 && !existsSync(ready); i++) await new Promise((r) => setTimeout(r, 100));
      expect(existsSync(ready)).toBe(true);
      const second = await run('build', pipeline, '--out', 'out/locked');
      expect(second.code).toBe(1);
      expect(second.stderr.trim().split('\n')).toHaveLength(1);
      expect(second.stderr).toMatch(
        /out\/locked is being written by another asof command \(asof build, pid \d+/,
      );
    } finally {
      child.kill('SIGINT');
      await new Promise((r) => child.on('exit', r));
    }
  }, 120_000);
});

describe('an absolute --out outside the working directory works for every command', () => {
  it('build, split, baselines, score and export fintsb write to a data disk', async () => {
    const d = (n: string) => join(elsewhere, 'disk', n);
    const steps: string[][] = [
      ['build', pipeline, '--out', d('u')],
      ['split', '--manifest', join(d('u'), 'manifest.json'), '--out', d('s')],
      ['baselines', '--manifest', join(d('s'), 'manifest.json'), '--out', d('b.parquet')],
      [
        'score',
        '--manifest',
        join(d('s'), 'manifest.json'),
        '--forecasts',
        d('b.parquet'),
        '--universe',
        join(d('u'), 'manifest.json'),
        '--out',
        d('score'),
      ],
      [
        'export',
        'fintsb',
        '--manifest',
        join(d('u'), 'manifest.json'),
        '--out',
        d('fintsb'),
        '--k',
        '1',
        '--datasets',
        '1',
        '--length',
        '60',
      ],
    ];
    for (const argv of steps) {
      const r = await run(...argv);
      expect(r.code, `${argv[0]}: ${r.stderr}`).toBe(0);
    }
    for (const m of ['u', 's', 'fintsb'])
      expect((await run('verify', join(d(m), 'manifest.json'))).code).toBe(0);
    expect(existsSync(join(d('score'), 'results.json'))).toBe(true);
    expect(existsSync(join(d('score'), 'leaderboard.md'))).toBe(true);
  }, 300_000);

  it('ingest writes to an absolute folder too', async () => {
    const raw = join(SHARED, 'fixtures', 'real', 'fred');
    if (!existsSync(raw)) {
      console.warn(`skipped: ${raw} is absent (../shared fixtures)`);
      return;
    }
    const r = await run('ingest', 'fred', '--raw-dir', raw, '--out', join(elsewhere, 'disk', 'fred'));
    expect(r.code, r.stderr).toBe(0);
    expect((await run('verify', join(elsewhere, 'disk', 'fred', 'manifest.json'))).code).toBe(0);
  }, 120_000);
});
