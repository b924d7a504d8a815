import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duck } from '@asof/duck';
import { finalizeDerivedManifest, finalizeManifest, manifestOutput, writeManifest } from '@asof/manifest';
import { writeMiniUniverse } from '@asof/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from './build-report.ts';
import { openReportInputs } from './open-report-inputs.ts';

const dir = mkdtempSync(join(tmpdir(), 'asof-report-inputs-'));
const uni = join(dir, 'u');
const manifest = join(uni, 'manifest.json');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const observations = [];
  for (let k = 0; k < 36; k++) {
    const t = new Date(Date.UTC(2018, k + 1, 0, 23, 59, 59)).toISOString();
    const a = new Date(Date.parse(t) + 15 * 86_400_000).toISOString();
    observations.push({ series_id: 'm:x', timestamp: t, available_at: a, value: 100 + k });
    if (k % 6 === 0) {
      const r = new Date(Date.parse(t) + 60 * 86_400_000).toISOString();
      observations.push({ series_id: 'm:x', timestamp: t, available_at: r, value: 101 + k });
    }
  }
  await writeMiniUniverse(uni, {
    name: 'mini',
    eval_start: '2020-06-01',
    series: [{ series_id: 'm:x', frequency: 'M', eval_target: true }],
    observations,
  });
});

describe('openReportInputs', () => {
  it('loads exactly the files the manifest lists, never an unlisted file beside them', async () => {
    const part = join(uni, 'observations', 'frequency=M');
    copyFileSync(join(part, 'data.parquet'), join(part, 'unlisted.parquet'));
    const duck = await Duck.open({ threads: 1 });
    try {
      const inputs = await openReportInputs(manifest, duck);
      expect(inputs.kind).toBe('universe');
      const listed = inputs.manifest.outputs
        .filter((o) => o.table === 'observations')
        .reduce((n, o) => n + o.rows, 0);
      const [{ n }] = await duck.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM in_observations');
      expect(n).toBe(listed);
      expect(n).toBe(42);
    } finally {
      duck.close();
      rmSync(join(part, 'unlisted.parquet'));
    }
  });

  it('refuses a changed byte in a listed file, and results of another dataset', async () => {
    const series = join(uni, 'series.parquet');
    const good = readFileSync(series);
    const bad = Buffer.from(good);
    bad[bad.length - 20] ^= 1;
    writeFileSync(series, bad);
    const duck = await Duck.open({ threads: 1 });
    try {
      await expect(openReportInputs(manifest, duck)).rejects.toMatchObject({ code: 'MANIFEST_MISMATCH' });
      writeFileSync(series, good);
      // A results.json without its score manifest beside it cannot be checked (issue 52, audit 10.6).
      const loose = join(dir, 'results.json');
      writeFileSync(loose, '{"results_version":1}');
      await expect(openReportInputs(manifest, duck, loose)).rejects.toMatchObject({
        code: 'RESULTS_NO_MANIFEST',
      });
      // Listed by a score manifest and unchanged: read, then refused for what it holds.
      const score = join(dir, 'score');
      mkdirSync(score);
      const results = join(score, 'results.json');
      writeFileSync(results, '{"results_version":1}');
      const parent = JSON.parse(readFileSync(manifest, 'utf8'));
      const listed = await manifestOutput(score, {
        path: 'results.json',
        table: 'results',
        rows: 1,
        columns: ['format:json'],
        min_timestamp: null,
        max_timestamp: null,
        min_available_at: null,
        max_available_at: null,
      });
      const scoreManifest = finalizeDerivedManifest(parent, {
        suffix: 'scores',
        kind: 'scores',
        duckdbVersion: 'none',
        config: {},
        inputs: [],
        outputs: [listed],
        warnings: [],
        summary: {},
      });
      writeManifest(join(score, 'manifest.json'), scoreManifest);
      await expect(openReportInputs(manifest, duck, results)).rejects.toMatchObject({
        code: 'RESULTS_INVALID',
      });
      // One byte changed after the score: refused by its manifest, naming both hashes.
      writeFileSync(results, '{"results_version":2}');
      const edited = await openReportInputs(manifest, duck, results).catch((e: unknown) => e);
      expect(edited).toMatchObject({ code: 'MANIFEST_MISMATCH', exitCode: 1 });
      expect((edited as Error).message).toContain(`results.json sha256 (expected ${listed.sha256}, got `);
      // The manifest of another kind beside a results.json does not vouch for it.
      writeFileSync(results, '{"results_version":1}');
      const { dataset_id: _id, ...body } = scoreManifest;
      writeManifest(join(score, 'manifest.json'), finalizeManifest({ ...body, kind: 'split' }));
      await expect(openReportInputs(manifest, duck, results)).rejects.toMatchObject({
        code: 'RESULTS_NOT_A_SCORE',
      });
      await expect(openReportInputs(manifest, duck, join(dir, 'none.json'))).rejects.toMatchObject({
        code: 'RESULTS_NOT_FOUND',
      });
    } finally {
      writeFileSync(series, good);
      duck.close();
    }
  });
});

describe('buildReport', () => {
  it('writes the same bytes twice, through a temp file that does not stay behind', async () => {
    const a = join(dir, 'a.html');
    const b = join(dir, 'b.html');
    const r = await buildReport({ manifestPath: manifest, outPath: a, series: ['m:x'] });
    await buildReport({ manifestPath: manifest, outPath: b, series: ['m:x'] });
    expect(r).toMatchObject({ kind: 'universe', scoring: false });
    expect(r.charts).toBeGreaterThanOrEqual(5);
    expect(readFileSync(a)).toEqual(readFileSync(b));
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
    const html = readFileSync(a, 'utf8');
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
    expect(html).toContain('m:x');
  });

  it('refuses an unknown --series', async () => {
    await expect(
      buildReport({ manifestPath: manifest, outPath: join(dir, 'c.html'), series: ['nope'] }),
    ).rejects.toMatchObject({
      code: 'REPORT_SERIES_UNKNOWN',
    });
  });
});
