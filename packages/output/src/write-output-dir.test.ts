import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { cleanStaleTemps } from './clean-stale-temps.ts';
import { planOutput } from './plan-output.ts';
import { storeOf } from './store-layout.ts';
import { registryDir } from './temp-registry.ts';
import { writeOutputDir } from './write-output-dir.ts';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'asof-output-test-')));
  process.env.ASOF_STATE_DIR = join(root, 'state');
});

const manifest = (id: string) =>
  JSON.stringify({ manifest_version: 1, dataset_id: id, created_by: { asof_version: '0.1.0' } });

async function write(target: string, id: string, extra: Record<string, string> = {}) {
  return writeOutputDir(
    target,
    { command: 'test', writes: 'universe', label: () => id },
    async ({ dir, work }) => {
      writeFileSync(join(work, 'scratch.duckdb'), 'x');
      writeFileSync(join(dir, 'manifest.json'), manifest(id));
      for (const [k, v] of Object.entries(extra)) writeFileSync(join(dir, k), v);
      return id;
    },
  );
}

/** Everything under root except the state folder, as relative paths. */
function tree(dir = root, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (prefix === '' && e.name === 'state') continue;
    const rel = `${prefix}${e.name}`;
    out.push(e.isSymbolicLink() ? `${rel} ->` : rel);
    if (e.isDirectory() && !e.isSymbolicLink()) out.push(...tree(join(dir, e.name), `${rel}/`));
  }
  return out.sort();
}

describe('writeOutputDir', () => {
  it('writes a generation, links the output to it, and replaces it on the next write', async () => {
    const target = join(root, 'out', 'u');
    await write(target, 'aaa', { 'a.txt': 'one' });
    expect(lstatSync(target).isSymbolicLink()).toBe(true);
    expect(readlinkSync(target)).toMatch(/^\.asof\/u\/gen-aaa-[0-9a-f]{8}$/);
    expect(readFileSync(join(target, 'a.txt'), 'utf8')).toBe('one');
    const first = realpathSync(target);
    await write(target, 'bbb', { 'b.txt': 'two' });
    expect(readFileSync(join(target, 'b.txt'), 'utf8')).toBe('two');
    expect(existsSync(join(target, 'a.txt'))).toBe(false);
    expect(existsSync(first)).toBe(false);
    // Only the current generation is left; no temp folder, no work folder, no lock, no registry entry.
    expect(tree().filter((p) => !p.startsWith('out/.asof/u/gen-bbb'))).toEqual([
      'out',
      'out/.asof',
      'out/.asof/.asof-store',
      'out/.asof/u',
      'out/u ->',
    ]);
    expect(readdirSync(join(root, 'out/.asof/u/', readdirSync(join(root, 'out/.asof/u'))[0]))).toEqual([
      'b.txt',
      'manifest.json',
    ]);
    expect(readdirSync(registryDir())).toEqual([]);
  });

  it('keeps the old output and removes the temp folder when the work fails', async () => {
    const target = join(root, 'u');
    await write(target, 'aaa', { 'a.txt': 'one' });
    await expect(
      writeOutputDir(target, { command: 'test', writes: 'universe' }, async ({ dir }) => {
        writeFileSync(join(dir, 'half.txt'), 'half');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(readFileSync(join(target, 'a.txt'), 'utf8')).toBe('one');
    expect(readdirSync(storeOf(target)).filter((n) => !n.startsWith('gen-'))).toEqual([]);
  });

  it('replaces an empty folder and a folder written by an earlier asof (holding its manifest)', async () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    await write(empty, 'aaa');
    expect(lstatSync(empty).isSymbolicLink()).toBe(true);
    const legacy = join(root, 'legacy');
    mkdirSync(legacy);
    writeFileSync(join(legacy, 'manifest.json'), manifest('old'));
    writeFileSync(join(legacy, 'old.parquet'), 'old');
    await write(legacy, 'new');
    expect(JSON.parse(readFileSync(join(legacy, 'manifest.json'), 'utf8')).dataset_id).toBe('new');
    expect(existsSync(join(legacy, 'old.parquet'))).toBe(false);
    expect(readdirSync(storeOf(legacy))).toHaveLength(1);
  });

  it('refuses a folder asof did not write, naming what is in it, and leaves it byte-identical', async () => {
    const docs = join(root, 'docs');
    mkdirSync(docs);
    writeFileSync(join(docs, 'thesis.md'), 'my thesis');
    await expect(write(docs, 'x')).rejects.toMatchObject({
      code: 'OUTPUT_NOT_ASOF',
      exitCode: 2,
      message: expect.stringContaining('thesis.md'),
    });
    expect(tree()).toEqual(['docs', 'docs/thesis.md']);
    expect(readFileSync(join(docs, 'thesis.md'), 'utf8')).toBe('my thesis');
  });

  it('refuses a file where a folder goes, and a symlink to a folder asof did not write', async () => {
    const file = join(root, 'f.parquet');
    writeFileSync(file, 'data');
    await expect(write(file, 'x')).rejects.toMatchObject({ code: 'OUTPUT_IS_FILE' });
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'keep.md'), 'keep');
    mkdirSync(join(root, 'out'));
    symlinkSync(elsewhere, join(root, 'out', 'ext'));
    await expect(write(join(root, 'out', 'ext'), 'x')).rejects.toMatchObject({ code: 'OUTPUT_NOT_ASOF' });
    // Through a symlinked parent: checked where it really goes.
    mkdirSync(join(elsewhere, 'sub'));
    writeFileSync(join(elsewhere, 'sub', 'keep2.md'), 'keep');
    await expect(write(join(root, 'out', 'ext', 'sub'), 'x')).rejects.toMatchObject({
      code: 'OUTPUT_NOT_ASOF',
      message: expect.stringContaining(join(elsewhere, 'sub')),
    });
    // A new folder through the symlinked parent is written where the link points.
    await write(join(root, 'out', 'ext', 'new'), 'n');
    expect(lstatSync(join(elsewhere, 'new')).isSymbolicLink()).toBe(true);
    expect(existsSync(join(elsewhere, '.asof', 'new'))).toBe(true);
    expect(readFileSync(join(elsewhere, 'keep.md'), 'utf8')).toBe('keep');
  });

  it('refuses an output that is, lies inside or contains an input', async () => {
    const universe = join(root, 'out', 'u');
    await write(universe, 'aaa');
    const inputs = [join(universe, 'manifest.json')];
    for (const out of [universe, join(universe, 'x'), join(root, 'out')]) {
      expect(() => planOutput(out, 'dir', { command: 't', writes: 'universe', inputs })).toThrow(
        expect.objectContaining({
          code: expect.stringMatching(/OUTPUT_OVERLAPS_INPUT|OUTPUT_NOT_ALLOWED|OUTPUT_NOT_ASOF/),
        }),
      );
    }
    expect(() =>
      planOutput(join(root, 'out', 'u2'), 'dir', { command: 't', writes: 'universe', inputs }),
    ).not.toThrow();
    expect(() => planOutput('/', 'dir', { command: 't', writes: 'universe' })).toThrow(
      expect.objectContaining({ code: 'OUTPUT_NOT_ALLOWED' }),
    );
  });

  it('fails a second writer of the same output with one line while the first holds it', async () => {
    const target = join(root, 'u');
    let release!: () => void;
    const first = writeOutputDir(target, { command: 'asof build', writes: 'universe' }, async ({ dir }) => {
      writeFileSync(join(dir, 'manifest.json'), manifest('one'));
      await new Promise<void>((r) => {
        release = r;
      });
    });
    await new Promise((r) => setTimeout(r, 20));
    await expect(write(target, 'two')).rejects.toMatchObject({
      code: 'OUTPUT_BUSY',
      message: expect.stringMatching(/being written by another asof command \(asof build, pid \d+/),
    });
    release();
    await first;
    expect(JSON.parse(readFileSync(join(target, 'manifest.json'), 'utf8')).dataset_id).toBe('one');
  });

  it('removes what a dead process left: its temp folder, stale lock and the registry entry', async () => {
    const target = join(root, 'u');
    await write(target, 'aaa');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const store = storeOf(target);
    const tmp = join(store, `tmp-${dead}-1-abcd1234`);
    mkdirSync(join(tmp, '.work'), { recursive: true });
    writeFileSync(join(tmp, '.work', 'build.duckdb.wal'), 'x'.repeat(1000));
    writeFileSync(join(store, 'lock'), JSON.stringify({ pid: dead, start: 1, command: 'x', since: '' }));
    const orphan = join(store, 'gen-orphan-00000000');
    mkdirSync(orphan);
    mkdirSync(registryDir(), { recursive: true });
    writeFileSync(
      join(registryDir(), `${dead}-1-1.json`),
      JSON.stringify({ command: 'x', pid: dead, start: 1, paths: [tmp], stores: [{ store, target }] }),
    );
    const removed = cleanStaleTemps();
    expect(removed).toEqual(expect.arrayContaining([tmp, orphan]));
    expect(readdirSync(store).filter((n) => !n.startsWith('gen-aaa'))).toEqual([]);
    expect(readdirSync(registryDir())).toEqual([]);
    expect(JSON.parse(readFileSync(join(target, 'manifest.json'), 'utf8')).dataset_id).toBe('aaa');
  });

  it('links the newest generation again when a process died after moving an old folder aside', async () => {
    const target = join(root, 'u');
    await write(target, 'aaa');
    const store = storeOf(target);
    // The state a kill between the two steps of a legacy replacement leaves: no link, the generation kept.
    const { rmSync } = await import('node:fs');
    rmSync(target);
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    mkdirSync(registryDir(), { recursive: true });
    writeFileSync(
      join(registryDir(), `${dead}-1-1.json`),
      JSON.stringify({ command: 'x', pid: dead, start: 1, paths: [], stores: [{ store, target }] }),
    );
    cleanStaleTemps();
    expect(JSON.parse(readFileSync(join(target, 'manifest.json'), 'utf8')).dataset_id).toBe('aaa');
  });
});
