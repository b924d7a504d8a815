import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  canonicalJson,
  checkManifest,
  finalizeManifest,
  hashFile,
  ManifestVerifyError,
  sha256Hex,
  writeManifest,
} from '@asof/manifest';
import type { ManifestOutput } from '@asof/schema';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScoreStore } from './baseline-cache.ts';
import { makeBaselineForecasts } from './make-baseline-forecasts.ts';
import { readSplitTables } from './read-split-tables.ts';
import { ScoringResults } from './results-schema.ts';
import { scoreSplit } from './score-split.ts';
import { type ScoredSplit, writeResults } from './write-results.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const TABLES = ['origins', 'inputs', 'targets', 'tasks'];
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A split directory with a hand-made manifest around the fixture Parquet files. */
async function makeSplit(config: Record<string, unknown> = { origins_policy: 'non_overlapping' }) {
  const dir = mkdtempSync(join(tmpdir(), 'asof-score-'));
  dirs.push(dir);
  const outputs: ManifestOutput[] = [];
  for (const t of TABLES) {
    copyFileSync(join(FIXTURES, 'split', `${t}.parquet`), join(dir, `${t}.parquet`));
    const { sha256, bytes } = await hashFile(join(dir, `${t}.parquet`));
    outputs.push({
      path: `${t}.parquet`,
      table: t,
      sha256,
      bytes,
      rows: 0,
      schema_fingerprint: sha256Hex(t),
      min_timestamp: null,
      max_timestamp: null,
      min_available_at: null,
      max_available_at: null,
    });
  }
  const manifest = finalizeManifest({
    manifest_version: 1,
    name: 'fixture-split',
    kind: 'split',
    parent_dataset_id: 'a'.repeat(64),
    created_by: { asof_version: '0.0.0-test', duckdb_version: 'none', git_commit: null, git_dirty: null },
    config,
    config_sha256: sha256Hex(canonicalJson(config)),
    registry: [],
    inputs: [],
    outputs,
    warnings: [],
    summary: {},
  });
  const path = join(dir, 'manifest.json');
  writeManifest(path, manifest);
  return { dir, path, manifest };
}

describe('scoreSplit', () => {
  it('scores CSV and Parquet forecasts against a verified split, recording dataset ids and hashes', async () => {
    const { path, manifest, dir } = await makeSplit();
    const csv = join(dir, 'a.csv');
    writeFileSync(
      csv,
      readFileSync(join(FIXTURES, 'forecasts.csv'), 'utf8').replaceAll('mymodel', 'csvmodel'),
    );
    let split: ScoredSplit | undefined;
    const results = await scoreSplit(path, [csv, join(FIXTURES, 'forecasts.parquet')], {
      onSplit: (s) => {
        split = s;
      },
    });
    expect(split).toMatchObject({
      manifest: { dataset_id: manifest.dataset_id },
      sha256: (await hashFile(path)).sha256,
    });
    expect(ScoringResults.safeParse(results).success).toBe(true);
    expect(results.dataset_id).toBe(manifest.dataset_id);
    expect(results.parent_dataset_id).toBe('a'.repeat(64));
    expect(results.forecasts.map((f) => f.models)).toEqual([['csvmodel'], ['mymodel']]);
    expect(results.forecasts[0].sha256).toBe((await hashFile(csv)).sha256);
    expect(results.origins).toMatchObject({ series: 3, origins: 60, points: 300, overlapping: false });
    // Same numbers from both formats: the files hold the same forecasts.
    const pick = (m: string) => results.values.filter((v) => v.model === m).map((v) => [v.metric, v.value]);
    expect(pick('csvmodel')).toEqual(pick('mymodel'));
    expect(pick('mymodel').length).toBeGreaterThan(10);
    const out = await writeResults(join(dir, 'out'), results, { split: split! });
    expect(JSON.parse(readFileSync(out.results, 'utf8')).config_sha256).toBe(results.config_sha256);
    expect(readFileSync(out.leaderboard, 'utf8')).toMatch(/## Where the baselines win/);
  });

  it('10.6: writes a score manifest (kind scores) listing results.json and leaderboard.md, the same bytes twice', async () => {
    const { path, manifest, dir } = await makeSplit();
    let split: ScoredSplit | undefined;
    const forecasts = join(FIXTURES, 'forecasts.parquet');
    const results = await scoreSplit(path, [forecasts], { onSplit: (s) => (split = s) });
    const write = async (name: string) => {
      await writeResults(join(dir, name), structuredClone(results), { split: split! });
      return readFileSync(join(dir, name, 'manifest.json'));
    };
    const bytes = await write('score-a');
    expect(await write('score-b')).toEqual(bytes);
    const { manifest: m, problems } = await checkManifest(join(dir, 'score-a', 'manifest.json'), {
      unlisted: true,
    });
    expect(problems).toEqual([]);
    expect(m).toMatchObject({
      kind: 'scores',
      name: `${manifest.name}-scores`,
      parent_dataset_id: manifest.dataset_id,
      config_sha256: results.config_sha256,
    });
    expect(m.outputs.map((o) => [o.path, o.table])).toEqual([
      ['results.json', 'results'],
      ['leaderboard.md', 'leaderboard'],
    ]);
    const text = readFileSync(join(dir, 'score-a', 'results.json'), 'utf8');
    expect(m.outputs[0]).toMatchObject({ bytes: Buffer.byteLength(text), rows: text.split('\n').length - 1 });
    expect(m.inputs).toEqual([
      { source: 'parent', key: 'manifest.json', ...(await hashFile(path)) },
      { source: 'forecasts', key: forecasts, ...(await hashFile(forecasts)) },
    ]);
    // One changed byte of results.json is named with both hashes.
    writeFileSync(
      join(dir, 'score-a', 'results.json'),
      text.replace('"results_version": 1', '"results_version": 2'),
    );
    const after = await checkManifest(join(dir, 'score-a', 'manifest.json'));
    expect(after.problems).toEqual([
      expect.objectContaining({ path: 'results.json', problem: 'sha256', expected: m.outputs[0].sha256 }),
    ]);
  });

  it.each(TABLES)(
    'refuses a split with one changed byte in %s before reading the split or any forecast',
    async (table) => {
      const { dir, path } = await makeSplit();
      const file = join(dir, `${table}.parquet`);
      const bytes = readFileSync(file);
      bytes[Math.floor(bytes.length / 2)] ^= 0x01;
      writeFileSync(file, bytes);
      let loaderCalls = 0;
      const err = await scoreSplit(path, [join(dir, 'does-not-exist.csv')], {
        loadSplit: async () => {
          loaderCalls++;
          throw new Error('must not be reached');
        },
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ManifestVerifyError);
      expect((err as ManifestVerifyError).message).toContain(`${table}.parquet sha256`);
      expect(loaderCalls).toBe(0);
    },
  );

  it('refuses a manifest that is not a split', async () => {
    const { dir, manifest } = await makeSplit();
    const { dataset_id: _, ...body } = manifest;
    const path = join(dir, 'universe.json');
    writeManifest(path, finalizeManifest({ ...body, kind: 'universe' }));
    await expect(scoreSplit(path, [join(FIXTURES, 'forecasts.csv')])).rejects.toThrow(
      /kind is 'universe', expected 'split'/,
    );
  });

  it('takes the DM overlap rule from the manifest: policy all refuses verdicts, --allow-overlap runs them', async () => {
    const { path } = await makeSplit({ origins_policy: 'all' });
    const f = join(FIXTURES, 'forecasts.csv');
    const refused = await scoreSplit(path, [f]);
    expect(refused.config.origins_policy).toBe('all');
    expect(refused.verdicts.status).toBe('refused');
    const allowed = await scoreSplit(path, [f], { allowOverlap: true });
    expect(allowed.verdicts.status).toBe('ok');
    expect(
      allowed.verdicts.rows.some((r) => r.model === 'mymodel' && r.unit === '*' && r.verdict !== null),
    ).toBe(true);
  });
});

/** An in-memory ScoreStore counting what the scorer asked of it. */
class MemoryStore implements ScoreStore {
  readonly entries = new Map<string, Uint8Array>();
  readonly files = new Map<string, string[]>();
  hits = 0;
  get(key: string) {
    const v = this.entries.get(key) ?? null;
    if (v) this.hits++;
    return v;
  }
  put(key: string, bytes: Uint8Array) {
    this.entries.set(key, bytes);
  }
  acceptedFile(key: string, sha256: string) {
    return this.files.get(`${key}|${sha256}`) ?? null;
  }
  acceptFile(key: string, sha256: string, models: readonly string[]) {
    this.files.set(`${key}|${sha256}`, [...models]);
  }
}

describe('scoreSplit with a baselines store (issue 51 item 5)', () => {
  it('reuses its baselines, skips a file of the same baselines it checked before, and writes the same bytes', async () => {
    const { path, dir } = await makeSplit();
    // The point baselines as `asof baselines` would write them, from the split's own origins.
    const data = await readSplitTables(JSON.parse(readFileSync(path, 'utf8')), dir);
    const freq = new Map(data.tasks!.map((t) => [t.series_id, t.frequency]));
    const rows = makeBaselineForecasts(data.origins, (s) => freq.get(s), [
      'random_walk',
      'drift',
      'seasonal_naive',
    ]);
    const baselinesCsv = join(dir, 'baselines.csv');
    writeFileSync(
      baselinesCsv,
      `model,series_id,origin,step,value\n${rows.map((r) => `${r.model},${r.series_id},${r.origin},${r.step},${r.value}`).join('\n')}\n`,
    );
    const model = join(FIXTURES, 'forecasts.csv');
    const store = new MemoryStore();
    const first = await scoreSplit(path, [baselinesCsv], { scoreStore: store });
    // Two entries: the split's panel as read, and the baselines.
    expect([store.entries.size, store.hits, store.files.size]).toEqual([2, 0, 1]);
    expect([...store.files.values()]).toEqual([['random_walk', 'drift', 'seasonal_naive']]);
    expect(first.warnings.find((w) => w.code === 'SUBMITTED_BASELINES_MATCH')?.count).toBe(3);
    const lines: string[] = [];
    const warm = await scoreSplit(path, [baselinesCsv, model], {
      scoreStore: store,
      log: (l) => lines.push(l),
    });
    expect(store.hits).toBe(2);
    expect(lines.some((l) => l.startsWith('read the split as kept by an earlier score'))).toBe(true);
    expect(lines.some((l) => l.includes('baselines.csv: the scorer') && l.includes('not read again'))).toBe(
      true,
    );
    expect(lines.some((l) => l.startsWith(`read ${baselinesCsv}`))).toBe(false);
    const cold = await scoreSplit(path, [baselinesCsv, model]);
    expect(JSON.stringify(warm)).toBe(JSON.stringify(cold));
    expect(warm.forecasts[0]).toEqual(cold.forecasts[0]);
    // Another refit schedule is another key: nothing reused, the file read and checked again.
    const other = await scoreSplit(path, [baselinesCsv], { scoreStore: store, refitEvery: 5 });
    expect([store.hits, store.entries.size, store.files.size]).toEqual([3, 3, 2]);
    expect(other.config.refit_every).toBe(5);
    // A file with a model of its own beside the baselines is not remembered: it must be read each time.
    const mixed = join(dir, 'mixed.csv');
    writeFileSync(
      mixed,
      `${readFileSync(baselinesCsv, 'utf8')}${readFileSync(model, 'utf8')
        .split('\n')
        .slice(1)
        .filter(Boolean)
        .map((l) => l.split(',').slice(0, 5).join(','))
        .join('\n')}\n`,
    );
    await scoreSplit(path, [mixed], { scoreStore: store });
    expect(store.files.size).toBe(2);
  });
});

describe('scoreSplit with tasks from the parent universe', () => {
  it('reads tasks from --universe when the split has none, and checks the parent id', async () => {
    const uDir = mkdtempSync(join(tmpdir(), 'asof-universe-'));
    dirs.push(uDir);
    mkdirSync(join(uDir, 'x'));
    copyFileSync(join(FIXTURES, 'split', 'tasks.parquet'), join(uDir, 'x', 'tasks.parquet'));
    const { sha256, bytes } = await hashFile(join(uDir, 'x', 'tasks.parquet'));
    const u = finalizeManifest({
      manifest_version: 1,
      name: 'u',
      kind: 'universe',
      parent_dataset_id: null,
      created_by: { asof_version: '0', duckdb_version: 'none', git_commit: null, git_dirty: null },
      config: {},
      config_sha256: sha256Hex(canonicalJson({})),
      registry: [],
      inputs: [],
      outputs: [
        {
          path: 'x/tasks.parquet',
          table: 'tasks',
          sha256,
          bytes,
          rows: 9,
          schema_fingerprint: sha256Hex('tasks'),
          min_timestamp: null,
          max_timestamp: null,
          min_available_at: null,
          max_available_at: null,
        },
      ],
      warnings: [],
      summary: {},
    });
    const uPath = join(uDir, 'manifest.json');
    writeManifest(uPath, u);
    // A split whose outputs omit tasks, naming u as its parent.
    const { dir } = await makeSplit();
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    const { dataset_id: _, ...body } = m;
    body.outputs = body.outputs.filter((o: ManifestOutput) => o.table !== 'tasks');
    body.parent_dataset_id = u.dataset_id;
    const sPath = join(dir, 'split2.json');
    writeManifest(sPath, finalizeManifest(body));
    const f = join(FIXTURES, 'forecasts.csv');
    await expect(scoreSplit(sPath, [f])).rejects.toThrow(/no tasks table; pass the parent universe manifest/);
    const r = await scoreSplit(sPath, [f], { universeManifest: uPath });
    expect(r.values.some((v) => v.metric === 'HR(1w,1w)' && v.model === 'mymodel' && v.value !== null)).toBe(
      true,
    );
    body.parent_dataset_id = 'b'.repeat(64);
    writeManifest(sPath, finalizeManifest(body));
    await expect(scoreSplit(sPath, [f], { universeManifest: uPath })).rejects.toThrow(
      /is not the split's parent/,
    );
  });
});
