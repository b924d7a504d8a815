import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duck, quoteLiteral } from '@asof/duck';
import { finalizeManifest, hashFile, sha256Hex, verifyManifest, writeManifest } from '@asof/manifest';
import { CollectingSink, InputError, type ManifestOutput } from '@asof/schema';
import { generateSyntheticPrices } from '@asof/source-embedded';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSegments, SEGMENTS_ORDER_BY } from './build-segments.ts';
import { exportFintsb } from './export-fintsb.ts';
import { loadPanel } from './load-panel.ts';

let dir: string;
let parentManifest: string;
let parentId: string;

/** A small parent universe: synthetic prices, segments, Parquet files and a verified manifest. */
async function buildParent(root: string): Promise<void> {
  const sink = new CollectingSink();
  generateSyntheticPrices({ seed: 7, start: '2005-01-03', end: '2009-12-31', instruments: 60 }, sink);
  const duck = await Duck.open();
  try {
    await loadPanel(duck, sink.series, sink.observations);
    await buildSegments(duck);
    mkdirSync(join(root, 'observations', 'frequency=BD'), { recursive: true });
    const files: [string, string, string][] = [
      [
        'observations/frequency=BD/data.parquet',
        'observations',
        'SELECT * FROM observations ORDER BY series_id, "timestamp", available_at',
      ],
      ['series.parquet', 'series', 'SELECT * FROM series ORDER BY series_id'],
      ['segments.parquet', 'segments', `SELECT * FROM segments ORDER BY ${SEGMENTS_ORDER_BY}`],
    ];
    const outputs: ManifestOutput[] = [];
    for (const [path, table, query] of files) {
      const file = join(root, ...path.split('/'));
      await duck.writeParquet(query, file);
      const { sha256, bytes } = await hashFile(file);
      const rows = await duck.one<{ n: bigint }>(
        `SELECT count(*) AS n FROM read_parquet(${quoteLiteral(file)})`,
      );
      outputs.push({
        path,
        table,
        sha256,
        bytes,
        rows: Number(rows.n),
        schema_fingerprint: sha256Hex(table),
        min_timestamp: null,
        max_timestamp: null,
        min_available_at: null,
        max_available_at: null,
      });
    }
    const manifest = finalizeManifest({
      manifest_version: 1,
      name: 'test',
      kind: 'universe',
      parent_dataset_id: null,
      created_by: {
        asof_version: '0.0.0',
        duckdb_version: await duck.version(),
        git_commit: null,
        git_dirty: null,
      },
      config: {},
      config_sha256: sha256Hex('{}'),
      registry: [],
      inputs: [],
      outputs,
      warnings: [],
      summary: {},
    });
    writeManifest(join(root, 'manifest.json'), manifest);
    parentId = manifest.dataset_id;
  } finally {
    duck.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'asof-fintsb-'));
  await buildParent(join(dir, 'parent'));
  parentManifest = join(dir, 'parent', 'manifest.json');
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('exportFintsb', () => {
  it('writes 4 patterns × N disjoint datasets split 7:1:2, with a derived manifest naming its parent', async () => {
    const out = join(dir, 'export');
    const result = await exportFintsb({
      manifestPath: parentManifest,
      outDir: out,
      k: 8,
      length: 250,
      datasets: 2,
    });
    expect(result.manifest.kind).toBe('fintsb-export');
    expect(result.manifest.parent_dataset_id).toBe(parentId);
    const verified = await verifyManifest(join(out, 'manifest.json'));
    expect(verified.dataset_id).toBe(result.manifest.dataset_id);
    expect(verified.outputs.filter((o) => o.path.startsWith('datasets/')).map((o) => o.path)).toEqual([
      'datasets/downtrend_1.parquet',
      'datasets/downtrend_2.parquet',
      'datasets/extreme_1.parquet',
      'datasets/extreme_2.parquet',
      'datasets/uptrend_1.parquet',
      'datasets/uptrend_2.parquet',
      'datasets/volatile_1.parquet',
      'datasets/volatile_2.parquet',
    ]);

    const duck = await Duck.open();
    try {
      const pq = (p: string) => `read_parquet(${quoteLiteral(join(out, p))})`;
      const members = await duck.all<{ dataset: string; series_id: string; segment: number }>(
        `SELECT dataset, series_id, segment FROM ${pq('members.parquet')}`,
      );
      expect(members).toHaveLength(8 * 8);
      const pairs = new Set(members.map((m) => `${m.series_id}@${m.segment}`));
      expect(pairs.size).toBe(members.length);
      // Each member's label in the parent is its dataset's pattern.
      const labelled = await duck.all<{ bad: bigint }>(
        `SELECT count(*) AS bad FROM ${pq('members.parquet')} AS m
         JOIN read_parquet(${quoteLiteral(join(dir, 'parent', 'segments.parquet'))}) AS s USING (series_id, segment)
         WHERE s.quota_label IS DISTINCT FROM m.pattern`,
      );
      expect(Number(labelled[0].bad)).toBe(0);
      const splits = await duck.all<{
        dataset: string;
        split: string;
        steps: bigint;
        series: bigint;
        lo: number;
        hi: number;
      }>(
        `SELECT dataset, split, count(DISTINCT step) AS steps, count(DISTINCT series_id) AS series, min(step) AS lo, max(step) AS hi
         FROM ${pq('datasets/*.parquet')} GROUP BY dataset, split ORDER BY dataset, lo`,
      );
      expect(splits).toHaveLength(8 * 3);
      for (const s of splits) {
        expect(Number(s.series)).toBe(8);
        const expected = { train: [175, 0, 174], valid: [25, 175, 199], test: [50, 200, 249] }[s.split];
        expect([Number(s.steps), s.lo, s.hi]).toEqual(expected);
      }
      const dates = await duck.all<{ ok: boolean }>(
        `SELECT train_end < valid_start AND valid_end < test_start AS ok FROM ${pq('datasets.parquet')}`,
      );
      expect(dates.map((d) => d.ok)).toEqual(Array(8).fill(true));
    } finally {
      duck.close();
    }
    expect(result.statistics.map((s) => s.pattern)).toEqual(['uptrend', 'downtrend', 'volatile', 'extreme']);
    for (const s of result.statistics) {
      expect(s.datasets).toBe(2);
      expect(s.series).toBe(16);
      expect(
        Number.isFinite(s.adf_stat) && Number.isFinite(s.acf1) && Number.isFinite(s.forecastability),
      ).toBe(true);
      expect(s.adf_stat).toBeLessThan(-2);
    }
  }, 60_000);

  it('is byte-reproducible', async () => {
    const a = await exportFintsb({ manifestPath: parentManifest, outDir: join(dir, 'a'), k: 5, datasets: 1 });
    const b = await exportFintsb({ manifestPath: parentManifest, outDir: join(dir, 'b'), k: 5, datasets: 1 });
    expect(b.manifest.dataset_id).toBe(a.manifest.dataset_id);
  }, 60_000);

  it('refuses a parent whose files changed, and asks for a smaller --k when segments run out', async () => {
    await expect(
      exportFintsb({ manifestPath: parentManifest, outDir: join(dir, 'big'), k: 500, datasets: 2 }),
    ).rejects.toThrow(/use --k \d+ or fewer/);
    await expect(
      exportFintsb({ manifestPath: parentManifest, outDir: join(dir, 'long'), length: 400 }),
    ).rejects.toThrow(InputError);
    const copy = join(dir, 'tampered');
    cpSync(join(dir, 'parent'), copy, { recursive: true });
    appendFileSync(join(copy, 'series.parquet'), 'x');
    await expect(
      exportFintsb({ manifestPath: join(copy, 'manifest.json'), outDir: join(dir, 'x') }),
    ).rejects.toThrow(/series\.parquet bytes/);
    expect(existsSync(join(dir, 'x'))).toBe(false);
  }, 60_000);
});
