import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { modelSandbox, sandboxAvailable, sandboxMode } from './model-sandbox.ts';

const root = mkdtempSync(join(tmpdir(), 'asof-sandbox-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A folder asof would call its output: a manifest with asof's marker. */
function fakeOutput(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({ dataset_id: 'x', manifest_version: 1, created_by: { asof_version: 'test' } }),
  );
}

describe('modelSandbox (issue 52 item 3)', () => {
  it('off, or no bwrap on PATH: the model runs as it is and the record says why', () => {
    const off = modelSandbox({ mode: 'off', cwd: root, env: process.env, splitDir: root });
    expect(off.record).toEqual({ kind: 'none', detail: '--sandbox off', hidden: [], network: true });
    expect(off.wrap(['python3', 'm.py'])).toEqual(['python3', 'm.py']);
    const none = modelSandbox({ mode: 'auto', cwd: root, env: { PATH: root }, splitDir: root });
    expect(none.record.kind).toBe('none');
    expect(none.record.detail).toMatch(/bubblewrap/);
    expect(() => modelSandbox({ mode: 'on', cwd: root, env: { PATH: root }, splitDir: root })).toThrow(
      /--sandbox on: .*install it \(apt-get install bubblewrap\)/,
    );
  });

  it('checks --sandbox', () => {
    expect(sandboxMode(undefined)).toBe('auto');
    expect(() => sandboxMode('yes')).toThrow(/--sandbox yes: expected auto, on or off/);
  });

  it.skipIf(!sandboxAvailable().ok)(
    'hides the split, the outputs and stores near it and the working folder, and cuts the network',
    () => {
      const project = join(root, 'project');
      const store = join(project, 'out', '.asof');
      fakeOutput(join(store, 's', 'gen-1'));
      fakeOutput(join(store, 'csv', 'gen-1'));
      writeFileSync(join(store, 's', 'gen-1', 'targets.parquet'), 'answers');
      writeFileSync(join(store, 'csv', 'gen-1', 'targets.csv'), 'answers');
      symlinkSync(join(store, 's', 'gen-1'), join(project, 'out', 's'));
      symlinkSync(join(store, 'csv', 'gen-1'), join(project, 'out', 'csv'));
      fakeOutput(join(root, 'elsewhere', 'u'));
      writeFileSync(join(project, 'model.sh'), 'mine');
      const sandbox = modelSandbox({
        mode: 'auto',
        cwd: project,
        env: process.env,
        splitDir: join(project, 'out', 's'),
        hide: [join(root, 'elsewhere')],
      });
      // The store covers the generations inside it: one mount, not a mount inside a hidden folder.
      expect(sandbox.record).toMatchObject({
        kind: 'bubblewrap',
        hidden: [join(root, 'elsewhere'), 'out/.asof'],
      });
      const script = [
        'for f in out/s/targets.parquet out/csv/targets.csv ../elsewhere/u/manifest.json model.sh; do',
        '  if cat "$f" >/dev/null 2>&1; then echo "$f ok"; else echo "$f hidden"; fi; done',
        'umount out/.asof 2>/dev/null && echo unmounted',
        "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '",
      ].join('\n');
      const argv = sandbox.wrap(['sh', '-c', script]);
      const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', cwd: project });
      expect(r.stdout.trim().split('\n')).toEqual([
        'out/s/targets.parquet hidden',
        'out/csv/targets.csv hidden',
        '../elsewhere/u/manifest.json hidden',
        'model.sh ok',
        'lo',
      ]);
    },
  );
});
