import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildUniverse, PipelineConfig } from '@asof/build';
import { verifyManifest } from '@asof/manifest';
import { expect } from 'vitest';
import { asofIn, REPO, SCRATCH, writeTinyPipeline } from './helpers.ts';
import { poisonUniverse } from './poison-universe.ts';

// The universes several test files read, built once per run into the run's scratch folder (global-setup.ts;
// issue 50, audit structure-2026-12 §4.4 T5): each is built by the first file that asks for it, so running
// one file builds only what it needs. Readers link to them (`linkShared`); a test that writes, tampers or
// replaces takes a private copy (`privateCopy`), so no file can change what another file reads.

/**
 * Builds `name` once per run (a lock folder keeps two processes from building it together). Every use
 * verifies the fixture's outputs (each folder holding a manifest.json) against their manifests first: a test
 * that wrote into a shared fixture fails the next user loudly, naming the file, instead of changing its inputs.
 */
async function sharedFixture<T extends object>(name: string, build: (dir: string) => Promise<T>): Promise<T> {
  const root = join(SCRATCH, 'fixtures');
  const dir = join(root, name);
  const ready = join(dir, 'fixture.json');
  const read = async (): Promise<T> => {
    const value = JSON.parse(readFileSync(ready, 'utf8')) as T;
    for (const path of Object.values(value)) {
      if (typeof path === 'string' && existsSync(join(path, 'manifest.json')))
        await verifyManifest(join(path, 'manifest.json'));
    }
    return value;
  };
  mkdirSync(root, { recursive: true });
  for (;;) {
    if (existsSync(ready)) return read();
    try {
      mkdirSync(`${dir}.lock`);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      await sleep(200);
    }
  }
  try {
    if (existsSync(ready)) return read();
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const value = await build(dir);
    // The same check as on every later use (a builder that wrote its outputs wrong fails here).
    writeFileSync(`${ready}.tmp`, JSON.stringify(value));
    renameSync(`${ready}.tmp`, ready);
    return await read();
  } finally {
    rmSync(`${dir}.lock`, { recursive: true, force: true });
  }
}

export interface TinyFixture {
  /** helpers.ts writeTinyPipeline's file (read-only). */
  pipeline: string;
  universe: string;
  /** The default split of the universe (`asof split --manifest u/manifest.json --out s`). */
  split: string;
  /** `asof baselines` of the split. */
  baselines: string;
  /** The build's stdout and stderr (its `next:` hint names `--data u`). */
  buildLog: string;
}

/** The tiny universe (helpers.ts writeTinyPipeline) with its default split and baselines, as the CLI makes them. */
export function tinyFixture(): Promise<TinyFixture> {
  return sharedFixture('tiny', async (dir) => {
    const pipeline = writeTinyPipeline(dir);
    let buildLog = '';
    for (const argv of [
      ['build', pipeline, '--out', 'u'],
      ['split', '--manifest', 'u/manifest.json', '--out', 's'],
      ['baselines', '--manifest', 's/manifest.json', '--out', 'b.parquet'],
    ]) {
      const r = await asofIn(dir, ...argv);
      expect(r.code, `shared tiny fixture: asof ${argv.join(' ')}\n${r.stderr}`).toBe(0);
      if (argv[0] === 'build') buildLog = r.stdout + r.stderr;
    }
    return {
      pipeline,
      universe: join(dir, 'u'),
      split: join(dir, 's'),
      baselines: join(dir, 'b.parquet'),
      buildLog,
    };
  });
}

/** The leakage canary's poison instant (SPEC §8): rows published after it are poisoned. */
export const CANARY_T = '2021-06-15T00:00:00Z';

export interface CanaryFixture {
  /** Two synthetic instruments, three ALFRED series, two EDGAR companies; eval_start 2020-01-01. */
  clean: string;
  /** `clean` with every row published after CANARY_T poisoned (poison-universe.ts). */
  poisoned: string;
}

export const CANARY_PIPELINE = {
  name: 'canary',
  eval_start: '2020-01-01',
  sources: {
    embedded: { synthetic: { seed: 7, start: '2017-01-02', end: '2022-12-30', instruments: 2 } },
    fred: { synthetic: { seed: 7, start: '2015-01-01', end: '2022-12-31', count: 3 } },
    edgar: { synthetic: { seed: 7, companies: 2, first_fiscal_year: 2015, fiscal_years: 8 } },
  },
} as const;

/** The canary universe and its poisoned copy. */
export function canaryFixture(): Promise<CanaryFixture> {
  return sharedFixture('canary', async (dir) => {
    const clean = join(dir, 'clean');
    const poisoned = join(dir, 'poisoned');
    await buildUniverse({ config: PipelineConfig.parse(CANARY_PIPELINE), outDir: clean });
    await poisonUniverse(clean, poisoned, CANARY_T);
    return { clean, poisoned };
  });
}

export interface DefaultFixture {
  universe: string;
  /** `asof build pipelines/default.json`'s stdout and stderr. */
  buildLog: string;
}

/** The default universe, built as `npm start` builds it (the CLI from the repository root). */
export function defaultFixture(): Promise<DefaultFixture> {
  return sharedFixture('default', async (dir) => {
    const universe = join(dir, 'default');
    const r = await asofIn(REPO, 'build', 'pipelines/default.json', '--out', universe);
    expect(r.code, `shared default fixture: ${r.stderr}`).toBe(0);
    return { universe, buildLog: r.stdout + r.stderr };
  });
}

/** Links `links` (name → shared output) into `dir`, for tests that only read them. */
export function linkShared(dir: string, links: Record<string, string>): void {
  for (const [name, target] of Object.entries(links)) symlinkSync(target, join(dir, name));
}

/** A private copy of a shared output at `dest` (its files, not its links), for a test that writes or tampers. */
export function privateCopy(src: string, dest: string): void {
  cpSync(src, dest, { recursive: true, dereference: true });
}
