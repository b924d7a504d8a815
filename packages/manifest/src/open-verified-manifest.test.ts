import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Manifest } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { finalizeManifest, writeManifest } from './build-manifest.ts';
import { canonicalJson, sha256Hex } from './canonical-json.ts';
import { hashFile } from './hash-file.ts';
import { manifestOutput } from './manifest-output.ts';
import { openVerifiedManifest } from './open-verified-manifest.ts';
import { checkManifest, readManifest } from './verify-manifest.ts';

/** A folder with two listed files and its manifest. */
async function writeDataset(dir: string, a = 'alpha', b = 'beta'): Promise<string> {
  mkdirSync(join(dir, 'sub'), { recursive: true });
  writeFileSync(join(dir, 'a.txt'), a);
  writeFileSync(join(dir, 'sub', 'b.txt'), b);
  const describe = (path: string, table: string) => ({
    path,
    table,
    rows: 1,
    columns: ['x:VARCHAR'],
    min_timestamp: null,
    max_timestamp: null,
    min_available_at: null,
    max_available_at: null,
  });
  const outputs = [
    await manifestOutput(dir, describe('a.txt', 'a')),
    await manifestOutput(dir, describe('sub/b.txt', 'b')),
  ];
  const m = finalizeManifest({
    manifest_version: 1,
    name: 't',
    kind: 'universe',
    parent_dataset_id: null,
    created_by: { asof_version: '0.1.0', duckdb_version: 'v', git_commit: null, git_dirty: null },
    config: {},
    config_sha256: sha256Hex(canonicalJson({})),
    registry: [],
    inputs: [],
    outputs,
    warnings: [],
    summary: {},
  } as unknown as Omit<Manifest, 'dataset_id'>);
  writeManifest(join(dir, 'manifest.json'), m);
  return join(dir, 'manifest.json');
}

const scratch = () => mkdtempSync(join(tmpdir(), 'asof-verified-'));

describe('openVerifiedManifest', () => {
  it('reads the listed files through the descriptors it hashed, even after the folder is replaced', async () => {
    const root = scratch();
    const path = await writeDataset(join(root, 'u'));
    const v = await openVerifiedManifest(path);
    expect(v.files().map((f) => f.output.path)).toEqual(['a.txt', 'sub/b.txt']);
    expect(v.readPaths('a')[0]).toMatch(/^\/proc\/self\/fd\/\d+$/);
    // A rebuild replaces the folder (new files, same names): the reader still sees what it verified.
    renameSync(join(root, 'u'), join(root, 'old'));
    await writeDataset(join(root, 'u'), 'ALPHA2', 'BETA2');
    rmSync(join(root, 'old'), { recursive: true });
    expect(readFileSync(v.readPaths('a')[0], 'utf8')).toBe('alpha');
    await expect(v.recheck()).resolves.toBeUndefined();
    v.close();
  });

  it('refuses a flipped byte naming the file, and detects a file changed in place after it was checked', async () => {
    const root = scratch();
    const path = await writeDataset(join(root, 'u'));
    writeFileSync(join(root, 'u', 'sub', 'b.txt'), 'betA');
    await expect(openVerifiedManifest(path)).rejects.toMatchObject({
      code: 'MANIFEST_MISMATCH',
      message: expect.stringContaining('sub/b.txt sha256'),
    });
    writeFileSync(join(root, 'u', 'sub', 'b.txt'), 'beta');
    const v = await openVerifiedManifest(path);
    await new Promise((r) => setTimeout(r, 15));
    writeFileSync(join(root, 'u', 'a.txt'), 'alphb');
    await expect(v.recheck()).rejects.toThrow(/a\.txt changed while read/);
    v.close();
  });

  it('never lists an unlisted file (verify names it), and refuses a listed path that is a folder', async () => {
    const root = scratch();
    const path = await writeDataset(join(root, 'u'));
    writeFileSync(join(root, 'u', 'sub', 'extra.parquet'), 'not listed');
    const v = await openVerifiedManifest(path);
    expect(v.files().map((f) => f.path)).not.toContain(join(root, 'u', 'sub', 'extra.parquet'));
    v.close();
    const { problems } = await checkManifest(path, { unlisted: true });
    expect(problems).toEqual([{ path: 'sub/extra.parquet', problem: 'not listed' }]);
    rmSync(join(root, 'u', 'a.txt'));
    mkdirSync(join(root, 'u', 'a.txt'));
    await expect(openVerifiedManifest(path)).rejects.toThrow(/a\.txt not a file/);
    expect((await checkManifest(path)).problems).toEqual([{ path: 'a.txt', problem: 'not a file' }]);
  });

  it('refuses a manifest inside an unfinished asof output', async () => {
    const root = scratch();
    const path = await writeDataset(join(root, 'out', '.asof', 'u', 'tmp-123-456-abcdef01'));
    await expect(openVerifiedManifest(path)).rejects.toMatchObject({ code: 'MANIFEST_IN_TEMP' });
    await expect(checkManifest(path)).rejects.toMatchObject({ code: 'MANIFEST_IN_TEMP' });
  });

  it('a FIFO in place of a listed file, or of the manifest, is refused at once, never opened blocking', async () => {
    const root = scratch();
    const path = await writeDataset(join(root, 'u'));
    rmSync(join(root, 'u', 'sub', 'b.txt'));
    // No writer ever opens it: a blocking open(2) would wait forever and this test would time out.
    execFileSync('mkfifo', [join(root, 'u', 'sub', 'b.txt')]);
    const started = performance.now();
    await expect(openVerifiedManifest(path)).rejects.toThrow(
      /sub\/b\.txt is not a regular file \(it is a FIFO \(named pipe\)\)/,
    );
    expect((await checkManifest(path)).problems).toEqual([
      { path: 'sub/b.txt', problem: 'not a regular file', actual: 'a FIFO (named pipe)' },
    ]);
    await expect(hashFile(join(root, 'u', 'sub', 'b.txt'))).rejects.toMatchObject({
      code: 'NOT_REGULAR_FILE',
    });
    rmSync(path);
    execFileSync('mkfifo', [path]);
    expect(() => readManifest(path)).toThrow(/manifest\.json is not a regular file/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
