import { copyFileSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildUniverse, loadPipeline, PipelineConfig } from '@asof/build';
import { runSplit } from '@asof/split';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asofIn, writeTinyPipeline } from './helpers.ts';
import { privateCopy, tinyFixture } from './shared-fixtures.ts';

// Issue 15 "never serve unverified data": readers take exactly the files a manifest lists, check their
// hashes once and read what they checked (docs/decisions/0010).
const work = realpathSync(mkdtempSync(join(tmpdir(), 'asof-verified-reads-')));
process.env.ASOF_STATE_DIR = join(work, '.state');
const run = (...argv: string[]) => asofIn(work, ...argv);
let pipeline: string;

function flipByte(path: string): Buffer {
  const bytes = readFileSync(path);
  const changed = Buffer.from(bytes);
  changed[changed.length >> 1] ^= 0x01;
  writeFileSync(path, changed);
  return bytes;
}

beforeAll(async () => {
  pipeline = writeTinyPipeline(work);
  // Private copies of the run's shared tiny universe, split and baselines: these tests tamper with files.
  const tiny = await tinyFixture();
  privateCopy(tiny.universe, join(work, 'u'));
  privateCopy(tiny.split, join(work, 's'));
  privateCopy(tiny.baselines, join(work, 'b.parquet'));
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const universeReaders = (): string[][] => [
  ['show', 'syn:px:EQ0000:close', '--data', 'u'],
  ['taxonomy', '--coverage', 'u/manifest.json'],
  ['split', '--manifest', 'u/manifest.json', '--out', 's2'],
  [
    'export',
    'fintsb',
    '--manifest',
    'u/manifest.json',
    '--out',
    'f',
    '--k',
    '1',
    '--datasets',
    '1',
    '--length',
    '60',
  ],
  ['export', 'csv', '--manifest', 'u/manifest.json', '--out', 'c'],
  ['report', '--manifest', 'u/manifest.json', '--out', 'r.html'],
  ['diff', 'u/manifest.json', 'u/manifest.json'],
  ['update', '--manifest', 'u/manifest.json', pipeline, '--out', 'u2'],
];
const splitReaders = (): string[][] => [
  ['baselines', '--manifest', 's/manifest.json', '--out', 'b2.parquet'],
  [
    'score',
    '--manifest',
    's/manifest.json',
    '--forecasts',
    'b.parquet',
    '--universe',
    'u/manifest.json',
    '--out',
    'sc',
  ],
];

describe('a flipped byte in a listed file', () => {
  it('is refused by every reader, naming the file', async () => {
    const obs = join(work, 'u', 'observations', 'frequency=BD', 'data.parquet');
    const original = flipByte(obs);
    try {
      for (const argv of universeReaders()) {
        const r = await run(...argv);
        expect(r.code, `${argv[0]}: ${r.stderr}`).toBe(1);
        expect(r.stderr).toMatch(/observations\/frequency=BD\/data\.parquet sha256/);
      }
    } finally {
      writeFileSync(obs, original);
    }
    const inputs = join(work, 's', 'inputs.parquet');
    const before = flipByte(inputs);
    try {
      for (const argv of splitReaders()) {
        const r = await run(...argv);
        expect(r.code, `${argv[0]}: ${r.stderr}`).toBe(1);
        expect(r.stderr).toMatch(/inputs\.parquet sha256/);
      }
    } finally {
      writeFileSync(inputs, before);
    }
  }, 300_000);
});

describe('an unlisted Parquet file added to an output folder', () => {
  it('is read by no reader and named by verify', async () => {
    // A copy of a real observations file holding an extra series, put where a glob would pick it up.
    const extra = join(work, 'u', 'observations', 'frequency=BD', 'data-extra.parquet');
    const dup = await run('show', 'syn:px:EQ0000:close', '--data', 'u', '--json');
    expect(dup.code, dup.stderr).toBe(0);
    const rowsBefore = JSON.parse(dup.stdout).length;
    copyFileSync(join(work, 'u', 'observations', 'frequency=BD', 'data.parquet'), extra);
    const splitExtra = join(work, 's', 'targets-extra.parquet');
    copyFileSync(join(work, 's', 'targets.parquet'), splitExtra);
    try {
      const v = await run('verify', 'u/manifest.json');
      expect(v.code).toBe(1);
      expect(v.stderr).toMatch(/observations\/frequency=BD\/data-extra\.parquet: not listed/);
      expect((await run('verify', 's/manifest.json')).stderr).toMatch(/targets-extra\.parquet: not listed/);
      // A glob would double every row of the series; the listed files alone do not.
      const shown = await run('show', 'syn:px:EQ0000:close', '--data', 'u', '--json');
      expect(JSON.parse(shown.stdout)).toHaveLength(rowsBefore);
      const cov = JSON.parse((await run('taxonomy', '--coverage', 'u/manifest.json', '--json')).stdout);
      const covClean = await (async () => {
        rmSync(extra);
        const c = JSON.parse((await run('taxonomy', '--coverage', 'u/manifest.json', '--json')).stdout);
        copyFileSync(join(work, 'u', 'observations', 'frequency=BD', 'data.parquet'), extra);
        return c;
      })();
      expect(cov).toEqual(covClean);
      for (const argv of [...universeReaders().slice(2), ...splitReaders()]) {
        const r = await run(...argv);
        expect(r.code, `${argv[0]}: ${r.stderr}`).toBe(0);
      }
      // The split made beside the extra file is the split made without it.
      const s2 = JSON.parse(readFileSync(join(work, 's2', 'manifest.json'), 'utf8'));
      const s1 = JSON.parse(readFileSync(join(work, 's', 'manifest.json'), 'utf8'));
      expect(s2.dataset_id).toBe(s1.dataset_id);
    } finally {
      rmSync(extra, { force: true });
      rmSync(splitExtra, { force: true });
    }
  }, 300_000);
});

describe('the parent changes while a split reads it', () => {
  it('a rebuild of the parent folder mid-split gives the split of the parent it verified', async () => {
    const parentPath = join(work, 'mid', 'u');
    const base = loadPipeline(pipeline);
    await buildUniverse({ config: base, outDir: parentPath, cwd: work });
    const reference = await runSplit({
      manifestPath: join(parentPath, 'manifest.json'),
      outDir: join(work, 'mid', 'ref'),
    });
    const other = PipelineConfig.parse({
      ...base,
      sources: {
        ...base.sources,
        embedded: { ...base.sources.embedded, synthetic: { ...base.sources.embedded!.synthetic!, seed: 8 } },
      },
    });
    const raced = await runSplit({
      manifestPath: join(parentPath, 'manifest.json'),
      outDir: join(work, 'mid', 'raced'),
      afterParentVerified: async () => {
        const r = await buildUniverse({ config: other, outDir: parentPath, cwd: work });
        expect(r.manifest.dataset_id).not.toBe(reference.manifest.parent_dataset_id);
      },
    });
    expect(raced.manifest.parent_dataset_id).toBe(reference.manifest.parent_dataset_id);
    expect(raced.manifest.dataset_id).toBe(reference.manifest.dataset_id);
  }, 300_000);

  it('a listed file written to in place mid-split is refused', async () => {
    const parentPath = join(work, 'mid2', 'u');
    await buildUniverse({ config: loadPipeline(pipeline), outDir: parentPath, cwd: work });
    const obs = join(parentPath, 'observations', 'frequency=BD', 'data.parquet');
    await expect(
      runSplit({
        manifestPath: join(parentPath, 'manifest.json'),
        outDir: join(work, 'mid2', 's'),
        afterParentVerified: async () => {
          await new Promise((r) => setTimeout(r, 20));
          flipByte(obs);
        },
      }),
    ).rejects.toThrow(/data\.parquet changed while read/);
  }, 300_000);
});

describe('temp folders are never inputs', () => {
  it('verify refuses a manifest inside an unfinished output', async () => {
    const { mkdirSync, cpSync } = await import('node:fs');
    const tmp = join(work, 'out2', '.asof', 'x', 'tmp-1-1-deadbeef');
    mkdirSync(tmp, { recursive: true });
    cpSync(join(work, 's'), tmp, { recursive: true, dereference: true });
    const r = await run('verify', join(tmp, 'manifest.json'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/inside an unfinished asof output/);
  });
});
