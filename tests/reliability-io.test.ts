import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { sandboxAvailable } from '@asof/runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asofIn, REPO, SCRATCH, snapshot } from './helpers.ts';
import { privateCopy, type TinyFixture, tinyFixture } from './shared-fixtures.ts';

// Issue 52 items 6 and 7 (I/O) / audit reliability-2026-12: one named test per probe row, each failing on the
// code before the fix. Hangs and signals run the real bin in a child process (a hang then fails the test at
// its deadline instead of blocking the test runner); the I/O errors that need a read-only or full disk are
// injected with ASOF_FAULT (the tests run as root, whom chmod does not stop), with a real chmod test for
// everyone else.
const work = realpathSync(mkdtempSync(join(SCRATCH, 'reliability-io-')));
const state = join(work, '.state');
// A registry of our own: the user's $ASOF_STATE_DIR is never read or written.
process.env.ASOF_STATE_DIR = state;
const BIN = join(REPO, 'packages/cli/bin/asof.mjs');
const run = (...argv: string[]) => asofIn(work, ...argv);
let tiny: TinyFixture;

interface Child {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Seconds from the spawn to the exit. */
  seconds: number;
  /** True when the deadline passed and the test killed the child. */
  hung: boolean;
}

/**
 * Runs the asof bin in a child process; SIGKILLs it after `deadlineS` (then `hung`). `onStderr` sees the
 * stderr as it grows (to send a signal at a stage the log names).
 */
function runChild(
  args: string[],
  options: {
    env?: Record<string, string>;
    deadlineS?: number;
    onStderr?: (text: string, pid: number) => void;
    onSpawn?: (pid: number) => void;
  } = {},
): Promise<Child> {
  return new Promise((done) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: work,
      env: { ...process.env, ASOF_STATE_DIR: state, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (child.pid) options.onSpawn?.(child.pid);
    let stdout = '';
    let stderr = '';
    let hung = false;
    const timer = setTimeout(
      () => {
        hung = true;
        child.kill('SIGKILL');
      },
      (options.deadlineS ?? 60) * 1000,
    );
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
      if (child.pid) options.onStderr?.(stderr, child.pid);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr, hung, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/** Sets ASOF_FAULT (and friends) for in-process runs of `body`, then restores them. */
async function withEnv<T>(env: Record<string, string>, body: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await body();
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** Entries of an output's store other than its generations and asof's marker: temp folders, locks. */
function storeLeftovers(parent: string): string[] {
  const container = join(parent, '.asof');
  if (!existsSync(container)) return [];
  const out: string[] = [];
  for (const name of readdirSync(container)) {
    if (name === '.asof-store') continue;
    for (const e of readdirSync(join(container, name))) if (!e.startsWith('gen-')) out.push(`${name}/${e}`);
  }
  return out;
}

const oneLine = (stderr: string) => stderr.trim().split('\n');
/** `asof score` and `asof report` of the tiny split, each writing into `dir`. */
const scoreAndReportInto = (dir: string) => [
  [
    'score',
    '--manifest',
    join(tiny.split, 'manifest.json'),
    '--forecasts',
    tiny.baselines,
    '--out',
    `${dir}/sc`,
  ],
  ['report', '--manifest', join(tiny.split, 'manifest.json'), '--out', `${dir}/r.html`],
];

beforeAll(async () => {
  tiny = await tinyFixture();
  mkdirSync(join(work, 'out'), { recursive: true });
  const r = await run('build', tiny.pipeline, '--out', 'out/u');
  expect(r.code, r.stderr).toBe(0);
  const s = await run(
    'score',
    '--manifest',
    join(tiny.split, 'manifest.json'),
    '--forecasts',
    tiny.baselines,
    '--out',
    'out/sc',
  );
  expect(s.code, s.stderr).toBe(0);
}, 600_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('no hangs on special files (issue 52 item 6)', () => {
  it('2.12: a FIFO in place of a listed file: series, show and verify say "is not a regular file" at once, exit 1', async () => {
    const copy = join(work, 'fifo-u');
    privateCopy(tiny.universe, copy);
    const manifest = JSON.parse(readFileSync(join(copy, 'manifest.json'), 'utf8')) as {
      outputs: { path: string; table: string }[];
    };
    // Every listed file becomes a FIFO that no one ever writes: a blocking open(2) of any of them waits forever.
    for (const o of manifest.outputs) {
      rmSync(join(copy, o.path));
      execFileSync('mkfifo', [join(copy, o.path)]);
    }
    const first = manifest.outputs[0].path;
    for (const argv of [
      ['series', '--data', copy],
      ['show', 'syn:eq:0001:close', '--data', copy],
      ['verify', join(copy, 'manifest.json')],
    ]) {
      const r = await runChild(argv, { deadlineS: 30 });
      console.log(`2.12: asof ${argv[0]} on FIFOs: exit ${r.code} after ${r.seconds.toFixed(2)} s`);
      expect(r.hung, `asof ${argv[0]} hung on a FIFO`).toBe(false);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/not a regular file/);
      expect(r.stderr).toMatch(/FIFO/);
      expect(r.stderr).toContain(first);
      expect(r.stderr).not.toMatch(/unexpected failure|\n\s+at /);
      expect(r.seconds).toBeLessThan(15);
    }
  }, 120_000);
});

describe('no hangs on special files: inputs (issue 52 item 6)', () => {
  it('2.12: a FIFO named as the pipeline is refused at once as bad input (exit 2), never opened blocking', async () => {
    const fifo = join(work, 'pipeline-fifo.json');
    execFileSync('mkfifo', [fifo]);
    const r = await runChild(['build', fifo, '--out', 'out/from-fifo'], { deadlineS: 30 });
    console.log(`2.12: asof build of a FIFO pipeline: exit ${r.code} after ${r.seconds.toFixed(2)} s`);
    expect(r.hung, 'asof build hung on a FIFO pipeline').toBe(false);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/pipeline-fifo\.json is not a regular file \(it is a FIFO/);
    expect(r.stderr).not.toMatch(/unexpected failure|\n\s+at /);
    expect(existsSync(join(work, 'out', 'from-fifo'))).toBe(false);
  }, 60_000);
});

describe('no traces on I/O errors (issue 52 item 7)', () => {
  it('14.1: rebuilding an output on a read-only disk (EROFS at the lock, injected) is one line, exit 1, output intact', async () => {
    const before = snapshot(join(work, 'out'));
    const r = await withEnv({ ASOF_FAULT: 'write:lock:EROFS' }, () =>
      run('build', tiny.pipeline, '--out', 'out/u'),
    );
    expect(r.code, r.stderr).toBe(1);
    expect(oneLine(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(/read-only \(EROFS\)/);
    expect(r.stderr).toMatch(/out\/u/);
    expect(r.stderr).toMatch(/writable disk/);
    expect(r.stderr).not.toMatch(/unexpected failure|\n\s+at /);
    expect(snapshot(join(work, 'out'))).toEqual(before);
  });

  it('14.2: a new output or a report in a read-only folder names EROFS (not ENOENT) before any work (injected)', async () => {
    for (const argv of [
      ['build', tiny.pipeline, '--out', 'ro/new'],
      ['report', '--manifest', join(tiny.split, 'manifest.json'), '--out', 'ro/r.html'],
    ]) {
      mkdirSync(join(work, 'ro'), { recursive: true });
      const started = performance.now();
      const r = await withEnv({ ASOF_FAULT: 'probe:EROFS' }, () => run(...argv));
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `14.2: asof ${argv[0]} into a read-only folder: exit ${r.code} after ${seconds.toFixed(2)} s`,
      );
      expect(r.code, r.stderr).toBe(1);
      expect(oneLine(r.stderr)).toHaveLength(1);
      expect(r.stderr).toMatch(/read-only \(EROFS\)/);
      expect(r.stderr).not.toMatch(/ENOENT/);
      expect(r.stderr).toContain(join(work, 'ro'));
      expect(r.stderr).not.toMatch(/unexpected failure|\n\s+at /);
      // Before the work: no step of the build or the report was logged, nothing was made.
      expect(r.stdout).toBe('');
      expect(readdirSync(join(work, 'ro'))).toEqual([]);
    }
  });

  // A real read-only file system, as root too (chmod does not stop root, and CI runs as root): bubblewrap
  // binds the folder read-only for the asof process alone. Required in CI (.ci/run installs bubblewrap).
  const bwrap = sandboxAvailable();
  const requireBwrap = process.env.CI === 'true' || process.env.ASOF_TEST_REQUIRE_SANDBOX === '1';
  it.skipIf(!bwrap.ok && !requireBwrap)(
    `14.1: rebuilding an output on a real read-only mount (bubblewrap --ro-bind) is one line, exit 1, the output kept${bwrap.ok ? '' : ` (skipped: ${bwrap.why})`}`,
    async () => {
      expect(bwrap.ok, bwrap.ok ? '' : bwrap.why).toBe(true);
      const ro = join(work, 'ro-mount');
      mkdirSync(ro, { recursive: true });
      const built = await run('build', tiny.pipeline, '--out', 'ro-mount/u');
      expect(built.code, built.stderr).toBe(0);
      const before = snapshot(ro);
      const r = spawnSync(
        'bwrap',
        [
          '--dev-bind',
          '/',
          '/',
          '--ro-bind',
          ro,
          ro,
          '--',
          process.execPath,
          BIN,
          'build',
          tiny.pipeline,
          '--out',
          'ro-mount/u',
        ],
        { cwd: work, encoding: 'utf8', env: process.env },
      );
      expect(r.status, r.stderr).toBe(1);
      expect(oneLine(r.stderr)).toHaveLength(1);
      expect(r.stderr).toMatch(/read-only \(EROFS\)/);
      expect(r.stderr).toContain(ro);
      expect(r.stderr).not.toMatch(/unexpected failure|\n\s+at /);
      expect(snapshot(ro)).toEqual(before);
    },
  );

  it.skipIf(process.getuid?.() === 0)(
    '14.2 with a real chmod 0555 folder (skipped when running as root: chmod does not stop root)',
    async () => {
      const ro = join(work, 'ro-chmod');
      mkdirSync(ro, { recursive: true });
      chmodSync(ro, 0o555);
      try {
        const r = await run('build', tiny.pipeline, '--out', 'ro-chmod/new');
        expect(r.code, r.stderr).toBe(1);
        expect(oneLine(r.stderr)).toHaveLength(1);
        expect(r.stderr).toMatch(/permission denied \(EACCES\)/);
        expect(r.stderr).toContain(ro);
        expect(r.stderr).not.toMatch(/unexpected failure|\n\s+at /);
      } finally {
        chmodSync(ro, 0o755);
      }
    },
  );

  it('13.2b: score and report on a disk without room refuse before the work, naming the folder and the free space', async () => {
    // More free space than any disk has: the real statfs(2) figure is then too small.
    for (const argv of scoreAndReportInto('full')) {
      mkdirSync(join(work, 'full'), { recursive: true });
      const r = await withEnv({ ASOF_MIN_FREE_MB: '1000000000000' }, () => run(...argv));
      expect(r.code, r.stderr).toBe(1);
      expect(oneLine(r.stderr)).toHaveLength(1);
      expect(r.stderr).toMatch(/only [\d.]+ [KMGT]iB free on the disk of/);
      expect(r.stderr).toContain(join(work, 'full'));
      expect(r.stderr).toMatch(/free some space/);
      expect(r.stderr).not.toMatch(/unexpected failure|\n\s+at /);
      expect(readdirSync(join(work, 'full'))).toEqual([]);
    }
  });

  it('13.2b: a disk that fills up after the work (ENOSPC, injected) is one line naming the output, exit 1, old scores intact', async () => {
    const before = snapshot(join(work, 'out'));
    for (const argv of scoreAndReportInto('out')) {
      const r = await withEnv({ ASOF_FAULT: 'output:produced:ENOSPC' }, () => run(...argv));
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/no space left on the device \(ENOSPC\)/);
      expect(r.stderr).toMatch(argv[0] === 'score' ? /out\/sc \(writing results\.json\)/ : /out\/r\.html/);
      expect(r.stderr).not.toMatch(/unexpected failure|\n\s+at /);
      expect(r.stderr.split('\n').filter((l) => /ENOSPC/.test(l))).toHaveLength(1);
    }
    expect(snapshot(join(work, 'out'))).toEqual(before);
    expect(storeLeftovers(join(work, 'out'))).toEqual([]);
  });
});

/** `<pid>-<start>` as asof stamps its temp paths (start: field 22 of /proc/<pid>/stat). */
function stampOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return `${pid}-${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
}

/** Waits until `path` exists (a fault point's ready file). */
async function waitFor(path: string, seconds = 120): Promise<void> {
  for (let i = 0; i < seconds * 10 && !existsSync(path); i++) await new Promise((r) => setTimeout(r, 100));
  expect(existsSync(path), `${path} never appeared`).toBe(true);
}

describe('spill folders are removed after a kill (issue 52 item 7)', () => {
  it("4.13: a spill folder in a pipeline's temp_directory, left by a kill -9, is removed by the next command", async () => {
    const spillRoot = join(work, 'outside-spill');
    const pipeline = join(work, 'tiny-spill.json');
    const config = JSON.parse(readFileSync(tiny.pipeline, 'utf8'));
    writeFileSync(pipeline, JSON.stringify({ ...config, duckdb: { temp_directory: spillRoot } }));
    // Someone else's folder of the same shape, without asof's marker: never deleted.
    const foreign = join(spillRoot, 'asof-spill-1-1');
    mkdirSync(foreign, { recursive: true });
    writeFileSync(join(foreign, 'duckdb_temp_storage_DEFAULT-0.tmp'), "not asof's");
    const ready = join(work, 'ready-4.13');
    let pid = 0;
    const running = runChild(['build', pipeline, '--out', 'out/spilled'], {
      env: { ASOF_FAULT: 'run:midway:pause', ASOF_FAULT_READY: ready },
      onSpawn: (p) => {
        pid = p;
      },
    });
    await waitFor(ready);
    // What DuckDB writes when it spills (a tiny build never has to): its temp file in the spill folder.
    const spill = join(spillRoot, `asof-spill-${stampOf(pid)}`);
    mkdirSync(spill, { recursive: true });
    writeFileSync(join(spill, 'duckdb_temp_storage_DEFAULT-0.tmp'), Buffer.alloc(64 * 1024));
    process.kill(pid, 'SIGKILL');
    const killed = await running;
    expect(killed.signal).toBe('SIGKILL');
    expect(existsSync(spill)).toBe(true);
    const next = await runChild(['verify', join(work, 'out', 'u', 'manifest.json')]);
    expect(next.code, next.stderr).toBe(0);
    expect(existsSync(spill), `${spill} survived the next command`).toBe(false);
    expect(readdirSync(spillRoot)).toEqual(['asof-spill-1-1']);
    expect(readFileSync(join(foreign, 'duckdb_temp_storage_DEFAULT-0.tmp'), 'utf8')).toBe("not asof's");
    expect(storeLeftovers(join(work, 'out'))).toEqual([]);
  }, 180_000);
});

describe('signals act within a second at any stage (issue 52 item 6)', () => {
  /**
   * A build whose sources take seconds of synchronous work (600 synthetic instruments over 21 years: the
   * default universe's embedded source, three times over), where the probe's Ctrl-C waited 14 s.
   */
  function slowPipeline(): string {
    const path = join(work, 'slow-sources.json');
    const config = JSON.parse(readFileSync(tiny.pipeline, 'utf8'));
    config.sources.embedded.synthetic = { seed: 7, start: '2005-01-03', end: '2025-12-31', instruments: 600 };
    writeFileSync(path, JSON.stringify(config));
    return path;
  }

  const registered = () =>
    existsSync(join(state, 'running')) &&
    readdirSync(join(state, 'running')).some((n) => n.endsWith('.json'));

  /**
   * Rebuilds out/u with the slow pipeline and sends `signal` when `ready(stderr)` first holds (then after
   * `delayMs`); returns the child and the seconds from the signal to its exit.
   */
  async function interrupt(
    signal: NodeJS.Signals,
    ready: (stderr: string) => boolean,
    delayMs = 0,
  ): Promise<{ child: Child; afterSignal: number }> {
    let pid = 0;
    let sent = 0;
    let stderr = '';
    const poll = setInterval(() => {
      if (sent || !pid || !ready(stderr)) return;
      sent = -1;
      setTimeout(() => {
        sent = performance.now();
        process.kill(pid, signal);
      }, delayMs);
    }, 20);
    const child = await runChild(['build', slowPipeline(), '--out', 'out/u'], {
      deadlineS: 120,
      onSpawn: (p) => {
        pid = p;
      },
      onStderr: (text) => {
        stderr = text;
      },
    });
    clearInterval(poll);
    expect(sent, `the build ended before the signal: ${child.stderr}`).toBeGreaterThan(0);
    return { child, afterSignal: (performance.now() - sent) / 1000 };
  }

  it('1.9: SIGINT during the sources, the DuckDB models and the segments stops the build within a second; earlier output intact, temp paths removed', async () => {
    const before = snapshot(join(work, 'out', 'u'));
    const stages: [string, (stderr: string) => boolean, number][] = [
      // The registry entry is written just before the sources start: 0.3 s later they are generating.
      ['the sources (synchronous generation)', () => registered(), 300],
      ['the DuckDB models', (e) => /staged [\d,]+ observation rows/.test(e), 0],
      ['the segments', (e) => /models built, invariants hold/.test(e), 0],
    ];
    for (const [stage, ready, delay] of stages) {
      const { child, afterSignal } = await interrupt('SIGINT', ready, delay);
      console.log(
        `1.9: SIGINT during ${stage}: exit ${child.code ?? child.signal} ${afterSignal.toFixed(2)} s after the signal`,
      );
      expect(child.hung).toBe(false);
      expect(child.code, child.stderr).toBe(130);
      expect(child.stderr).toMatch(/interrupted by SIGINT; temp files removed, earlier outputs unchanged/);
      expect(child.stderr).not.toMatch(/unexpected failure|\n\s+at /);
      // About a second on a quiet machine; the slack is for a loaded CI machine.
      expect(afterSignal).toBeLessThan(3);
      expect(snapshot(join(work, 'out', 'u'))).toEqual(before);
      expect(storeLeftovers(join(work, 'out'))).toEqual([]);
    }
  }, 600_000);

  it('1.9: SIGTERM during the sources ends the build at once; the next command removes what it left', async () => {
    const before = snapshot(join(work, 'out', 'u'));
    const { child, afterSignal } = await interrupt('SIGTERM', () => registered(), 300);
    console.log(
      `1.9: SIGTERM during the sources: exit ${child.code ?? child.signal} ${afterSignal.toFixed(2)} s after the signal`,
    );
    expect(child.hung).toBe(false);
    // 143 from the handler, or the signal itself while synchronous work runs (SIGTERM's default action).
    expect(child.code === 143 || child.signal === 'SIGTERM', `${child.code} ${child.signal}`).toBe(true);
    expect(afterSignal).toBeLessThan(3);
    expect(snapshot(join(work, 'out', 'u'))).toEqual(before);
    const next = await runChild(['verify', join(work, 'out', 'u', 'manifest.json')]);
    expect(next.code, next.stderr).toBe(0);
    expect(storeLeftovers(join(work, 'out'))).toEqual([]);
    expect(existsSync(join(state, 'running')) ? readdirSync(join(state, 'running')) : []).toEqual([]);
  }, 300_000);
});
