import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { sandboxAvailable } from '@asof/runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asofIn, REPO, SCRATCH, snapshot } from './helpers.ts';
import { type TinyFixture, tinyFixture } from './shared-fixtures.ts';

// Issue 52 / audit reliability-2026-12: one named test per defect the probe found, each failing on the code
// before the fix. The data-loss cases plant exactly what the probe planted and check the user's files.
const work = realpathSync(mkdtempSync(join(SCRATCH, 'reliability-')));
// A registry of our own: the user's $ASOF_STATE_DIR is never read or written.
process.env.ASOF_STATE_DIR = join(work, '.state');
const run = (...argv: string[]) => asofIn(work, ...argv);
let tiny: TinyFixture;

/** A registry entry of a dead process (pid 1's start time is never 1) naming `paths` and `stores`. */
function plantRegistryEntry(name: string, paths: string[], stores: { store: string; target: string }[] = []) {
  const dir = join(process.env.ASOF_STATE_DIR as string, 'running');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `1-1-${name}.json`),
    JSON.stringify({ command: 'asof build', pid: 1, start: 1, paths, stores }),
  );
}

beforeAll(async () => {
  tiny = await tinyFixture();
  const r = await run('build', tiny.pipeline, '--out', 'out/victimU');
  expect(r.code, r.stderr).toBe(0);
}, 600_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('cleanup deletes only what asof created (issue 52 item 1)', () => {
  it('16.6: a registry entry naming a folder through `..` is dropped with a warning, never deleted', async () => {
    const precious = join(work, 'precious16b');
    mkdirSync(precious);
    writeFileSync(join(precious, 'keep.txt'), 'mine');
    const victim = join(work, 'victim16', '.asof', 'n');
    // The folders the path passes through exist, so the kernel resolves the `..` to precious16b.
    mkdirSync(join(victim, 'tmp-1-1-x'), { recursive: true });
    // Written as text: path.join would normalise the `..` away before asof sees it.
    plantRegistryEntry('dotdot', [`${victim}/tmp-1-1-x/../../../../precious16b`]);
    // An unrelated command that itself fails (a split has no series listing), as in the probe.
    const r = await run('series', '--data', tiny.split);
    expect(r.code).not.toBe(0);
    expect(readFileSync(join(precious, 'keep.txt'), 'utf8')).toBe('mine');
    expect(r.stderr).toMatch(/precious16b/);
    expect(r.stderr).not.toMatch(/unexpected failure|\n\s+at /);
    // The entry is dropped: the next command does not warn again.
    const again = await run('verify', join(tiny.split, 'manifest.json'));
    expect(again.stderr).not.toMatch(/precious16b/);
  });

  it('16.5: a symlinked <parent>/.asof is refused, and the folder it leads to is left as it was', async () => {
    const outside = join(work, 'outside-store');
    mkdirSync(join(outside, 'x', 'gen-precious'), { recursive: true });
    writeFileSync(join(outside, 'x', 'gen-precious', 'data.txt'), 'mine');
    const before = snapshot(outside);
    mkdirSync(join(work, 'out', 'sl'), { recursive: true });
    symlinkSync(outside, join(work, 'out', 'sl', '.asof'));
    const r = await run('build', tiny.pipeline, '--out', 'out/sl/x');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/\.asof is a symlink/);
    expect(snapshot(outside)).toEqual(before);
    expect(existsSync(join(work, 'out', 'sl', 'x'))).toBe(false);
  });

  it('16.5 via the registry: a dead entry naming a store under a symlinked .asof is not followed', async () => {
    const outside = join(work, 'outside-store2');
    mkdirSync(join(outside, 'y', 'gen-precious'), { recursive: true });
    writeFileSync(join(outside, 'y', 'gen-precious', 'data.txt'), 'mine');
    mkdirSync(join(outside, 'y', 'tmp-1-1-abcd'), { recursive: true });
    writeFileSync(join(outside, 'y', 'tmp-1-1-abcd', 'data.txt'), 'mine too');
    const before = snapshot(outside);
    const parent = join(work, 'out', 'sl2');
    mkdirSync(parent, { recursive: true });
    symlinkSync(outside, join(parent, '.asof'));
    plantRegistryEntry(
      'symlinked',
      [join(parent, '.asof', 'y', 'tmp-1-1-abcd')],
      [{ store: join(parent, '.asof', 'y'), target: join(parent, 'y') }],
    );
    const r = await run('verify', join(tiny.split, 'manifest.json'));
    expect(r.code, r.stderr).toBe(0);
    expect(snapshot(outside)).toEqual(before);
    expect(r.stderr).toMatch(/sl2/);
  });
});

describe('--out replaces an asof output only of its own kind (issue 52 item 2)', () => {
  async function expectKindRefused(argv: string[], kindWords: RegExp) {
    const victim = join(work, 'out', 'victimU');
    const before = snapshot(join(work, 'out'));
    const r = await run(...argv);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/victimU/);
    expect(r.stderr).toMatch(/universe/);
    expect(r.stderr).toMatch(kindWords);
    expect(r.stderr).not.toMatch(/unexpected failure|\n\s+at /);
    expect(snapshot(join(work, 'out'))).toEqual(before);
    const m = JSON.parse(readFileSync(join(victim, 'manifest.json'), 'utf8'));
    expect(m.kind).toBe('universe');
  }

  it('16.4: asof score --out <a universe> is refused, the universe kept', async () => {
    await expectKindRefused(
      [
        'score',
        '--manifest',
        join(tiny.split, 'manifest.json'),
        '--forecasts',
        tiny.baselines,
        '--universe',
        join(tiny.universe, 'manifest.json'),
        '--out',
        'out/victimU',
      ],
      /score/,
    );
  });

  it('16.4: asof export csv --out <a universe> is refused, the universe kept', async () => {
    await expectKindRefused(
      ['export', 'csv', '--manifest', join(tiny.split, 'manifest.json'), '--out', 'out/victimU'],
      /csv/,
    );
  });

  it('a command still replaces its own kind: build over the universe', async () => {
    const r = await run('build', tiny.pipeline, '--out', 'out/victimU');
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('strict numbers in forecasts (issue 52 item 5)', () => {
  it('3.17: a forecast value 0x10 is refused naming file, line and field, and nothing is written', async () => {
    const csv = join(work, 'hex.csv');
    writeFileSync(csv, 'model,series_id,origin,step,value\nhex,syn:fred:SYNCPI,2020-01-01,1,0x10\n');
    const r = await run(
      'score',
      '--manifest',
      join(tiny.split, 'manifest.json'),
      '--forecasts',
      csv,
      '--out',
      'hex-score',
    );
    expect(r.code, r.stderr).toBe(2);
    // The progress lines, then the error as the last line: no trace.
    expect(r.stderr).not.toMatch(/unexpected failure|\n\s+at /);
    expect(r.stderr.trim().split('\n').at(-1)).toContain(
      `${csv} line 2, field value: "0x10" is not a number in decimal or exponent notation`,
    );
    expect(existsSync(join(work, 'hex-score'))).toBe(false);
  });
});

describe('a model runs with less than the user has, and cannot hang or flood asof run (issue 52 items 3, 6)', {
  timeout: 120_000,
}, () => {
  const HOSTILE = join(REPO, 'tests', 'models', 'hostile-model.mjs');
  const KEY = 'secretkeymarker9876543210qwertyu';
  const UA = 'Rel3Tester uamarker77@example.org';
  const model = (...words: string[]) =>
    [process.execPath, HOSTILE, ...words].map((w) => JSON.stringify(w)).join(' ');
  let n = 0;
  /** `asof run` of the hostile model on the tiny split, with asof's secrets in the environment. */
  async function runHostile(words: string[], ...flags: string[]) {
    const saved = { key: process.env.ASOF_FRED_API_KEY, ua: process.env.ASOF_SEC_USER_AGENT };
    process.env.ASOF_FRED_API_KEY = KEY;
    process.env.ASOF_SEC_USER_AGENT = UA;
    process.env.ASOF_MODEL_SETTING = 'allowed-by-name';
    try {
      const started = performance.now();
      const r = await run(
        'run',
        '--manifest',
        join(tiny.split, 'manifest.json'),
        '--model',
        model(...words),
        '--name',
        'hostile',
        '--out',
        `out/hostile-${n++}.parquet`,
        ...flags,
      );
      return { ...r, seconds: (performance.now() - started) / 1000 };
    } finally {
      for (const [name, value] of [
        ['ASOF_FRED_API_KEY', saved.key],
        ['ASOF_SEC_USER_AGENT', saved.ua],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      delete process.env.ASOF_MODEL_SETTING;
    }
  }

  it('8.4b: the model sees no ASOF_* variable (keys, user agent, state folder)', async () => {
    const r = await runHostile(['env']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/model: ASOF-VARS \[\]/);
    expect(r.stderr).not.toContain(KEY);
  });

  it('8.4b: the model sees an ASOF_* variable only when allowed by name with --env', async () => {
    const r = await runHostile(['env'], '--env', 'ASOF_MODEL_SETTING', '--env', 'A*');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/model: ASOF-VARS \[ASOF_MODEL_SETTING\]/);
  });

  it('8.4b, 5.10: an upper-cased and a URL-encoded echo of the key on the model’s stderr is scrubbed', async () => {
    const keyFile = join(work, 'key.txt');
    writeFileSync(keyFile, KEY);
    const r = await runHostile(['echo', keyFile]);
    expect(r.code).toBe(1);
    // Relayed lines and the failure message (its last stderr line) both.
    expect(r.stderr).toMatch(/model: UPPER \*\*\*/);
    expect(r.stderr).toMatch(/model: ENCODED api_key%3D\*\*\*&x=\*\*\*/);
    expect(r.stderr).toMatch(/exited with status 3; its last stderr line: "LAST \*\*\*"/);
    for (const form of [KEY, KEY.toUpperCase(), encodeURIComponent(KEY.toUpperCase())])
      expect(r.stderr).not.toContain(form);
  });

  it('8.10: the cheating model cannot open targets.parquet, the exported targets.csv or the universe (sandbox)', async () => {
    const exported = await run(
      'export',
      'csv',
      '--manifest',
      join(tiny.split, 'manifest.json'),
      '--out',
      'out/ss-csv',
    );
    expect(exported.code, exported.stderr).toBe(0);
    const csv = readdirSync(join(work, 'out', 'ss-csv')).find((f) => /^targets.*\.csv$/.test(f));
    expect(csv).toBeDefined();
    const answers = [
      join(tiny.split, 'targets.parquet'),
      join(work, 'out', 'ss-csv', csv as string),
      join(tiny.universe, 'manifest.json'),
    ];
    for (const p of answers) expect(existsSync(p), p).toBe(true);
    const r = await runHostile(['peek', ...answers], '--json');
    expect(r.code, r.stderr).toBe(0);
    const sandbox = JSON.parse(r.stdout).run.sandbox;
    const probe = sandboxAvailable();
    // CI installs bubblewrap (.ci/run) and sets ASOF_TEST_REQUIRE_SANDBOX: there the sandbox must work.
    if (!probe.ok && process.env.ASOF_TEST_REQUIRE_SANDBOX !== '1') {
      // Without bubblewrap the limitation is stated and recorded; the runner canary is the control.
      expect(sandbox.kind).toBe('none');
      expect(r.stderr).toMatch(/the model runs unsandboxed \(/);
      return;
    }
    expect(sandbox).toMatchObject({ kind: 'bubblewrap', network: false });
    for (const p of answers) expect(r.stderr).toContain(`model: peek ${p}: ENOENT`);
    expect(r.stderr).toMatch(/model: interfaces \[(lo)?\]/);
    expect(r.stderr).toMatch(/model sandboxed \(bubblewrap/);
  });

  it('8.2c: a model whose child holds stdout open after the model exits ends promptly, not at the timeout', async () => {
    const r = await runHostile(['orphan'], '--timeout-s', '60');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/batch 1 .*exited with status 4/);
    expect(r.stderr).not.toMatch(/--timeout-s 60/);
    expect(r.seconds).toBeLessThan(20);
  });

  it('8.3b: a stdout line over the cap fails at once with one line naming the cap and how to raise it', async () => {
    // The model writes one line without end: the run ends while it writes, so the line was never held whole.
    const r = await runHostile(['longline'], '--max-line-mb', '1', '--timeout-s', '60');
    expect(r.code).toBe(1);
    const lines = r.stderr
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('asof run: ['));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/hello: the model wrote a stdout line longer than the cap of 1 MiB/);
    expect(lines[0]).toMatch(/raise the cap with --max-line-mb/);
    expect(r.seconds).toBeLessThan(20);
  });
});
