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
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanStaleTemps } from './clean-stale-temps.ts';
import { removeEmptyStore } from './clean-store.ts';
import { type OutputKind, planOutput } from './plan-output.ts';
import { stampText } from './process-stamp.ts';
import {
  cleanupPathProblem,
  cleanupStoreProblem,
  STORE_MARKER,
  storeContainerProblem,
  writeStoreMarker,
} from './store-owner.ts';
import { registryDir } from './temp-registry.ts';
import { writeOutputDir } from './write-output-dir.ts';
import { writeOutputFile } from './write-output-file.ts';

// Issue 52 items 1 and 2: cleanup deletes only in stores asof made; an output is replaced only by its kind.
let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'asof-store-owner-test-')));
  process.env.ASOF_STATE_DIR = join(root, 'state');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** `<root>/<parent>/.asof/<name>/<entry>` as folders, with the marker unless `marked` is false. */
function store(parent: string, name: string, entry: string, marked = true): string {
  const container = join(root, parent, '.asof');
  mkdirSync(join(container, name, entry), { recursive: true });
  if (marked) writeStoreMarker(container);
  return join(container, name, entry);
}

function precious(): string {
  const dir = join(root, 'precious');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'keep.txt'), 'mine');
  return dir;
}

/** A registry entry of a dead process (pid 1's start time is never 1). */
function plant(paths: unknown[], stores: unknown[] = []): void {
  mkdirSync(registryDir(), { recursive: true });
  writeFileSync(
    join(registryDir(), '1-1-9.json'),
    JSON.stringify({ command: 't', pid: 1, start: 1, paths, stores }),
  );
}

describe('cleanupPathProblem: what the start-up cleanup may delete', () => {
  it('accepts a dead tmp folder of a marked store', () => {
    expect(cleanupPathProblem(store('out', 'u', 'tmp-1-1-abcd'))).toBeNull();
  });

  it('refuses a path through `..`, a live stamp, a name asof does not give, and a relative path', () => {
    const tmp = store('out', 'u', 'tmp-1-1-abcd');
    expect(cleanupPathProblem(`${tmp}/../../../../precious`)).toMatch(/not a normalised absolute path/);
    expect(cleanupPathProblem(store('out', 'u', `tmp-${stampText()}-abcd`))).toMatch(/running process/);
    expect(cleanupPathProblem(store('out', 'u', 'gen-x'))).toMatch(/not an asof temp folder/);
    expect(cleanupPathProblem('out/.asof/u/tmp-1-1-abcd')).toMatch(/not a normalised/);
  });

  it('refuses a store under a symlinked .asof, an unmarked .asof, and a symlinked store', () => {
    const outside = join(root, 'outside');
    mkdirSync(join(outside, 'u', 'tmp-1-1-abcd'), { recursive: true });
    writeStoreMarker(outside);
    mkdirSync(join(root, 'sl'));
    symlinkSync(outside, join(root, 'sl', '.asof'));
    expect(cleanupPathProblem(join(root, 'sl', '.asof', 'u', 'tmp-1-1-abcd'))).toMatch(/is a symlink to/);
    expect(cleanupPathProblem(store('old', 'u', 'tmp-1-1-abcd', false))).toMatch(/no \.asof-store marker/);
    const linked = join(root, 'out', '.asof', 'v');
    store('out', 'u', 'gen-a');
    symlinkSync(join(root, 'out', '.asof', 'u'), linked);
    expect(cleanupPathProblem(join(linked, 'tmp-1-1-abcd'))).toMatch(/symlink/);
  });

  it('refuses a store that is not the target’s', () => {
    const s = join(root, 'out', '.asof', 'u');
    store('out', 'u', 'gen-a');
    expect(cleanupStoreProblem(s, join(root, 'out', 'u'))).toBeNull();
    expect(cleanupStoreProblem(s, join(root, 'elsewhere', 'u'))).toMatch(/not the store of/);
    expect(cleanupStoreProblem(`${s}/../u`, join(root, 'out', 'u'))).toMatch(/not the store of/);
  });
});

describe('cleanStaleTemps: a registry entry is a claim, checked before anything is deleted', () => {
  it('drops a `..` entry with a warning and removes a good one', () => {
    const keep = precious();
    const good = store('out', 'u', 'tmp-1-1-good');
    mkdirSync(join(root, 'out', '.asof', 'n', 'tmp-1-1-x'), { recursive: true });
    plant([`${root}/out/.asof/n/tmp-1-1-x/../../../../precious`, good, 42]);
    const warnings: string[] = [];
    const removed = cleanStaleTemps((l) => warnings.push(l));
    expect(readFileSync(join(keep, 'keep.txt'), 'utf8')).toBe('mine');
    expect(removed).toContain(good);
    expect(existsSync(good)).toBe(false);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/precious.*not a normalised absolute path/);
    expect(warnings.every((w) => !w.includes('\n'))).toBe(true);
    expect(readdirSync(registryDir())).toEqual([]);
  });

  it('never cleans a store under a symlinked .asof (its gen- folders are not asof’s)', () => {
    const outside = join(root, 'outside');
    mkdirSync(join(outside, 'x', 'gen-precious'), { recursive: true });
    writeFileSync(join(outside, 'x', 'gen-precious', 'data.txt'), 'mine');
    mkdirSync(join(root, 'sl'));
    symlinkSync(outside, join(root, 'sl', '.asof'));
    plant([], [{ store: join(root, 'sl', '.asof', 'x'), target: join(root, 'sl', 'x') }, null]);
    const warnings: string[] = [];
    cleanStaleTemps((l) => warnings.push(l));
    expect(readFileSync(join(outside, 'x', 'gen-precious', 'data.txt'), 'utf8')).toBe('mine');
    expect(warnings.join('\n')).toMatch(/is a symlink to/);
  });

  it('is quiet about an entry whose temp folder is already gone', () => {
    plant([join(root, 'out', '.asof', 'u', 'tmp-1-1-gone')]);
    const warnings: string[] = [];
    cleanStaleTemps((l) => warnings.push(l));
    expect(warnings).toEqual([]);
  });
});

describe('storeContainerProblem: which .asof folders asof writes into', () => {
  it('adopts an older asof’s unmarked store by its layout, and refuses a folder of anyone else’s', () => {
    const gen = store('old', 'u', 'gen-abc', false);
    writeFileSync(
      join(gen, 'manifest.json'),
      JSON.stringify({ manifest_version: 1, dataset_id: 'a', created_by: { asof_version: '0.1.0' } }),
    );
    mkdirSync(join(root, 'old', '.asof', 'u', 'tmp-5-6-abcd'));
    const container = join(root, 'old', '.asof');
    expect(storeContainerProblem(container, 'clean')).toMatch(/no \.asof-store marker/);
    expect(storeContainerProblem(container, 'check')).toBeNull();
    expect(existsSync(join(container, STORE_MARKER))).toBe(false);
    expect(storeContainerProblem(container, 'adopt')).toBeNull();
    expect(storeContainerProblem(container, 'clean')).toBeNull();

    store('mine', 'notes', 'gen-precious', false);
    expect(storeContainerProblem(join(root, 'mine', '.asof'), 'adopt')).toMatch(
      /not made by asof: it holds notes\/gen-precious, which is not an output asof wrote/,
    );
    mkdirSync(join(root, 'mine2', '.asof'), { recursive: true });
    writeFileSync(join(root, 'mine2', '.asof', 'todo.txt'), 'x');
    expect(storeContainerProblem(join(root, 'mine2', '.asof'), 'adopt')).toMatch(/holds todo\.txt/);
    expect(existsSync(join(root, 'mine2', '.asof', STORE_MARKER))).toBe(false);
  });

  it('removeEmptyStore removes the marker with the last store', () => {
    const container = join(root, 'out', '.asof');
    store('out', 'u', 'x');
    rmSync(join(container, 'u', 'x'), { recursive: true });
    removeEmptyStore(join(container, 'u'));
    expect(existsSync(container)).toBe(false);
  });
});

describe('planOutput and the writers: the store folder and the kind', () => {
  const manifest = (kind: string) =>
    JSON.stringify({ manifest_version: 1, dataset_id: 'a', kind, created_by: { asof_version: '0.1.0' } });
  const writeDir = (target: string, writes: OutputKind, kind: string) =>
    writeOutputDir(target, { command: `asof ${writes}`, writes }, async ({ dir }) => {
      writeFileSync(join(dir, 'manifest.json'), manifest(kind));
    });

  it('refuses a symlinked .asof before any work and writes nothing through it', async () => {
    const outside = join(root, 'outside');
    mkdirSync(join(outside, 'x', 'gen-precious'), { recursive: true });
    mkdirSync(join(root, 'out'));
    symlinkSync(outside, join(root, 'out', '.asof'));
    const target = join(root, 'out', 'x');
    expect(() => planOutput(target, 'dir', { command: 't', writes: 'universe' })).toThrow(
      expect.objectContaining({ code: 'OUTPUT_STORE_NOT_ASOF', exitCode: 2 }),
    );
    await expect(writeDir(target, 'universe', 'universe')).rejects.toMatchObject({
      code: 'OUTPUT_STORE_NOT_ASOF',
    });
    expect(readdirSync(join(outside, 'x'))).toEqual(['gen-precious']);
    expect(() =>
      planOutput(join(root, 'out', STORE_MARKER), 'dir', { command: 't', writes: 'universe' }),
    ).toThrow(/reserved/);
  });

  it('replaces a folder output only with its own kind, with one line naming what is there', async () => {
    const target = join(root, 'out', 'u');
    await writeDir(target, 'universe', 'universe');
    await writeDir(target, 'universe', 'universe');
    let err: unknown;
    try {
      planOutput(target, 'dir', { command: 'asof score', writes: 'scores' });
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'OUTPUT_OTHER_KIND', exitCode: 2 });
    const message = (err as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toMatch(/holds a universe \(kind "universe"\), but asof score writes scores/);
    expect(message).toContain(`rm -r ${target} ${join(root, 'out', '.asof', 'u')}`);
    await expect(writeDir(target, 'csv-export', 'csv-export')).rejects.toMatchObject({
      code: 'OUTPUT_OTHER_KIND',
    });
    expect(JSON.parse(readFileSync(join(target, 'manifest.json'), 'utf8')).kind).toBe('universe');
  });

  it('replaces a file output only with its own kind (a report is not a forecasts file)', async () => {
    const report = join(root, 'r.html');
    writeFileSync(report, '<!doctype html><meta name="generator" content="asof report"><p>hi</p>');
    await expect(
      writeOutputFile(report, { command: 'asof baselines', writes: 'forecasts' }, async ({ file }) =>
        writeFileSync(file, 'x'),
      ),
    ).rejects.toMatchObject({ code: 'OUTPUT_OTHER_KIND' });
    expect(readFileSync(report, 'utf8')).toContain('<p>hi</p>');
    await writeOutputFile(report, { command: 'asof report', writes: 'report' }, async ({ file }) =>
      writeFileSync(file, '<!doctype html><p>new</p>'),
    );
    expect(readFileSync(report, 'utf8')).toContain('new');
  });
});
