import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duck, quoteLiteral } from '@asof/duck';
import { finalizeManifest, hashFile, sha256Hex, verifyManifest, writeManifest } from '@asof/manifest';
import { CollectingSink, InputError, type ManifestOutput } from '@asof/schema';
import { generateSyntheticPrices } from '@asof/source-embedded';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSegments, SEGMENTS_ORDER_BY } from './build-segments.ts';
import { exportFintsb, type PriceFieldUnit } from './export-fintsb.ts';
import { loadPanel } from './load-panel.ts';

/** The synthetic panel's price units, as the registry lists them (price-kinds.tsv, embedded.tsv). */
const PRICE_FIELDS: PriceFieldUnit[] = ['Equity', 'ETF'].flatMap((category) =>
  (['open', 'high', 'low', 'close', 'volume'] as const).map((field) => ({
    scope: 'Individual',
    category,
    detail_category: `${category} OHLCV ${field[0].toUpperCase()}${field.slice(1)}`,
    field,
  })),
);

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
    // series.parquet as a build writes it: the attributes the export selects on (instrument = entity_id;
    // closes are the eval targets, as in the default universe) beside the panel's columns.
    await duck.run(
      `CREATE TABLE attrs (series_id VARCHAR, scope VARCHAR, category VARCHAR, entity_id VARCHAR, eval_target BOOLEAN)`,
    );
    for (const x of sink.series) {
      await duck.run('INSERT INTO attrs VALUES ($i, $s, $c, $e, $t)', {
        i: x.series_id,
        s: x.scope,
        c: x.category,
        e: x.entity_id,
        t: x.detail_category.endsWith('Close'),
      });
    }
    mkdirSync(join(root, 'observations', 'frequency=BD'), { recursive: true });
    const files: [string, string, string][] = [
      [
        'observations/frequency=BD/data.parquet',
        'observations',
        'SELECT * FROM observations ORDER BY series_id, "timestamp", available_at',
      ],
      ['series.parquet', 'series', 'SELECT * FROM series JOIN attrs USING (series_id) ORDER BY series_id'],
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
      priceFields: PRICE_FIELDS,
      manifestPath: parentManifest,
      outDir: out,
      k: 6,
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
      expect(members).toHaveLength(8 * 6);
      // One series per instrument per dataset, all closes: the parent has five OHLCV series per instrument.
      const perDataset = await duck.all<{
        n: bigint;
        instruments: bigint;
        entities: bigint;
        fields: string[];
      }>(
        `SELECT count(*) AS n, count(DISTINCT m.instrument) AS instruments, count(DISTINCT s.entity_id) AS entities,
           list(DISTINCT s.detail_category ORDER BY s.detail_category) AS fields
         FROM ${pq('members.parquet')} AS m
         JOIN read_parquet(${quoteLiteral(join(dir, 'parent', 'series.parquet'))}) AS s USING (series_id)
         GROUP BY m.dataset`,
      );
      expect(perDataset).toHaveLength(8);
      for (const d of perDataset) {
        expect(Number(d.entities)).toBe(Number(d.n));
        expect(Number(d.instruments)).toBe(Number(d.n));
        expect(d.fields.every((f) => f.endsWith('OHLCV Close'))).toBe(true);
      }
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
      // Grid steps 0–174 train, 175–199 valid, 200–249 test. A weekday no instrument traded (an NYSE
      // holiday) has no row, so a split may hold a few steps fewer than its range, never one outside it.
      for (const s of splits) {
        expect(Number(s.series)).toBe(6);
        const [from, to] = { train: [0, 174], valid: [175, 199], test: [200, 249] }[s.split] as number[];
        expect(s.lo).toBeGreaterThanOrEqual(from);
        expect(s.hi).toBeLessThanOrEqual(to);
        expect(Number(s.steps)).toBeGreaterThanOrEqual(Math.floor(0.9 * (to - from + 1)));
      }
      const misplaced = await duck.one<{ n: bigint }>(
        `SELECT count(*) AS n FROM ${pq('datasets/*.parquet')}
         WHERE split <> CASE WHEN step < 175 THEN 'train' WHEN step < 200 THEN 'valid' ELSE 'test' END`,
      );
      expect(Number(misplaced.n)).toBe(0);
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
      expect(s.series).toBe(12);
      expect(
        Number.isFinite(s.adf_stat) && Number.isFinite(s.acf1) && Number.isFinite(s.forecastability),
      ).toBe(true);
      expect(s.adf_stat).toBeLessThan(-2);
    }
  }, 60_000);

  it('chooses the largest k that works when none is given, and names it when a larger one is asked', async () => {
    const auto = await exportFintsb({
      priceFields: PRICE_FIELDS,
      manifestPath: parentManifest,
      outDir: join(dir, 'auto'),
      datasets: 2,
    });
    expect(auto.k).toBeGreaterThanOrEqual(2);
    expect(auto.manifest.config).toMatchObject({ k: auto.k, k_chosen: true, field: 'close' });
    expect(auto.statistics.every((s) => s.datasets === 2 && s.series === 2 * auto.k)).toBe(true);
    await expect(
      exportFintsb({
        priceFields: PRICE_FIELDS,
        manifestPath: parentManifest,
        outDir: join(dir, 'auto+1'),
        k: auto.k + 1,
        datasets: 2,
      }),
    ).rejects.toThrow(
      new RegExp(
        `--k ${auto.k + 1}: cannot make 2 disjoint datasets .* of 60 instrument\\(s\\).*use --k ${auto.k} or fewer`,
      ),
    );
  }, 60_000);

  it("--field open makes every dataset of distinct instruments' opens", async () => {
    const out = join(dir, 'open');
    const r = await exportFintsb({
      priceFields: PRICE_FIELDS,
      manifestPath: parentManifest,
      outDir: out,
      field: 'open',
      k: 3,
      datasets: 1,
    });
    expect(r.field).toBe('open');
    const duck = await Duck.open();
    try {
      const rows = await duck.all<{ series_id: string; field: string; instrument: string; dataset: string }>(
        `SELECT series_id, field, instrument, dataset FROM read_parquet(${quoteLiteral(join(out, 'members.parquet'))})`,
      );
      expect(rows).toHaveLength(4 * 3);
      expect(rows.every((x) => x.field === 'open' && x.series_id.endsWith(':open'))).toBe(true);
      for (const d of new Set(rows.map((x) => x.dataset)))
        expect(new Set(rows.filter((x) => x.dataset === d).map((x) => x.instrument)).size).toBe(3);
    } finally {
      duck.close();
    }
  }, 60_000);

  it('is byte-reproducible', async () => {
    const a = await exportFintsb({
      priceFields: PRICE_FIELDS,
      manifestPath: parentManifest,
      outDir: join(dir, 'a'),
      k: 5,
      datasets: 1,
    });
    const b = await exportFintsb({
      priceFields: PRICE_FIELDS,
      manifestPath: parentManifest,
      outDir: join(dir, 'b'),
      k: 5,
      datasets: 1,
    });
    expect(b.manifest.dataset_id).toBe(a.manifest.dataset_id);
  }, 60_000);

  it('says why when a field has no segments of some pattern', async () => {
    // Synthetic volumes have no 3σ runs: no extreme segment, whatever k.
    await expect(
      exportFintsb({
        priceFields: PRICE_FIELDS,
        manifestPath: parentManifest,
        outDir: join(dir, 'vol'),
        field: 'volume',
      }),
    ).rejects.toThrow(/no quota-labelled segment of the BD volume series of 60 instrument\(s\) is extreme/);
  }, 60_000);

  it('refuses a parent whose files changed, and asks for a smaller --k when segments run out', async () => {
    await expect(
      exportFintsb({
        priceFields: PRICE_FIELDS,
        manifestPath: parentManifest,
        outDir: join(dir, 'big'),
        k: 500,
        datasets: 2,
      }),
    ).rejects.toThrow(/use --k \d+ or fewer/);
    await expect(
      exportFintsb({
        priceFields: PRICE_FIELDS,
        manifestPath: parentManifest,
        outDir: join(dir, 'long'),
        length: 400,
      }),
    ).rejects.toThrow(InputError);
    const copy = join(dir, 'tampered');
    cpSync(join(dir, 'parent'), copy, { recursive: true });
    appendFileSync(join(copy, 'series.parquet'), 'x');
    await expect(
      exportFintsb({
        priceFields: PRICE_FIELDS,
        manifestPath: join(copy, 'manifest.json'),
        outDir: join(dir, 'x'),
      }),
    ).rejects.toThrow(/series\.parquet bytes/);
    expect(existsSync(join(dir, 'x'))).toBe(false);
  }, 60_000);
});
