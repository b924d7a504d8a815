import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { canonicalJson, readManifest } from '@asof/manifest';
import type { Manifest } from '@asof/schema';
import { asyncBufferFromFile, parquetMetadataAsync } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asof, asofBin, REPO, removeOutput, scratchOut } from './helpers.ts';
import { defaultFixture, privateCopy } from './shared-fixtures.ts';

// The first build is the run's shared default universe (shared-fixtures.ts: `asof build pipelines/default.json`
// from the repository root), read only; the second is this file's own, for the determinism check.
const first = { abs: '', rel: '' };
// Beside the first, so that its manifest records the pipeline file by the same relative path
// (created_by.pipeline_file, relative to the universe's folder, docs/decisions/0063) and every byte can match.
const second = { abs: '', rel: '' };
const fintsb = scratchOut('default-fintsb');
let manifest: Manifest;
let buildOutput = '';

beforeAll(async () => {
  const built = await defaultFixture();
  first.abs = built.universe;
  first.rel = relative(REPO, built.universe);
  second.abs = join(dirname(built.universe), `default-b-${process.pid}`);
  second.rel = relative(REPO, second.abs);
  buildOutput = built.buildLog;
  manifest = readManifest(join(first.abs, 'manifest.json'));
});
afterAll(() => {
  if (second.abs) removeOutput(second.abs);
  removeOutput(fintsb.abs);
});

/** The manifest without the fields that name the commit and the pipeline's path, which dataset_id also ignores. */
function comparable(m: Manifest): string {
  const { git_commit: _c, git_dirty: _d, pipeline_file: _p, ...createdBy } = m.created_by;
  return canonicalJson({ ...m, created_by: createdBy });
}

describe('the default build', () => {
  it('prints the summary table and warnings', () => {
    expect(buildOutput).toMatch(/scope\s+category\s+freq\s+series\s+observations/);
    expect(buildOutput).toMatch(/SURVIVORSHIP/);
    expect(buildOutput).toMatch(/dataset_id [0-9a-f]{64}/);
  });

  it('holds the promised content', () => {
    const s = manifest.summary as Record<string, number>;
    expect(s.series).toBeGreaterThanOrEqual(5 + 5 + 22 + 14 + 200 * 5 + 50 * 8 + 20);
    expect(s.synthetic_series).toBeGreaterThanOrEqual(200 * 5 + 50 * 8 + 20);
    expect(s.revisions).toBeGreaterThan(0);
    expect(manifest.warnings.map((w) => w.code)).toEqual(
      expect.arrayContaining(['SURVIVORSHIP', 'RULE_BASED_AVAILABLE_AT', 'SYNTHETIC']),
    );
  });

  it('verifies with the asof bin', () => {
    const r = asofBin(['verify', join(first.abs, 'manifest.json')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ok: \d+ files match/);
  });

  it('is read by hyparquet with the row counts DuckDB wrote', async () => {
    for (const out of manifest.outputs) {
      const file = await asyncBufferFromFile(join(first.abs, out.path));
      const meta = await parquetMetadataAsync(file);
      expect(Number(meta.num_rows), out.path).toBe(out.rows);
    }
    const { parquetReadObjects } = await import('hyparquet');
    const { compressors } = await import('hyparquet-compressors');
    const series = await parquetReadObjects({
      file: await asyncBufferFromFile(join(first.abs, 'series.parquet')),
      compressors,
    });
    expect(series.length).toBe(manifest.outputs.find((o) => o.path === 'series.parquet')!.rows);
  });

  it('shows the first-released value before a restatement and the restated one after', async () => {
    // Find a synthetic fundamentals observation that was restated.
    const { Duck } = await import('@asof/duck');
    const duck = await Duck.open();
    const row = await duck.one<{
      series_id: string;
      ts: string;
      first_at: string;
      second_at: string;
      v1: number;
      v2: number;
    }>(
      `WITH o AS (SELECT * FROM read_parquet('${join(first.abs, 'observations/frequency=Q/data.parquet')}')
                  WHERE series_id LIKE 'syn:edgar:%'),
            r AS (SELECT series_id, "timestamp", available_at, value,
                         row_number() OVER (PARTITION BY series_id, "timestamp" ORDER BY available_at) AS k FROM o)
       SELECT a.series_id, iso_instant(a."timestamp") AS ts,
              iso_instant(a.available_at) AS first_at,
              iso_instant(b.available_at) AS second_at, a.value AS v1, b.value AS v2
       FROM r a JOIN r b ON a.series_id = b.series_id AND a."timestamp" = b."timestamp" AND a.k = 1 AND b.k = 2
       ORDER BY a.series_id, a."timestamp" LIMIT 1`,
    );
    duck.close();
    expect(row.v1).not.toBe(row.v2);
    const between = new Date((Date.parse(row.first_at) + Date.parse(row.second_at)) / 2).toISOString();
    const before = await asof('show', row.series_id, '--data', first.rel, '--as-of', between, '--json');
    expect(before.code, before.stderr).toBe(0);
    const b = JSON.parse(before.stdout).find((r: { timestamp: string }) => r.timestamp === row.ts);
    expect(b.value).toBe(row.v1);
    const after = await asof('show', row.series_id, '--data', first.rel, '--as-of', row.second_at, '--json');
    const a = JSON.parse(after.stdout).find((r: { timestamp: string }) => r.timestamp === row.ts);
    expect(a.value).toBe(row.v2);
    // Nothing available after the as-of instant is ever shown.
    for (const r of JSON.parse(before.stdout))
      expect(Date.parse(r.available_at)).toBeLessThanOrEqual(Date.parse(between));
  });

  it('has tasks for every eval-target series, and a coverage view', async () => {
    const { Duck } = await import('@asof/duck');
    const duck = await Duck.open();
    const row = await duck.one<{ targets: bigint; without: bigint }>(
      `SELECT count(*) AS targets,
              count(*) FILTER (WHERE series_id NOT IN (SELECT series_id FROM read_parquet('${join(first.abs, 'tasks.parquet')}'))) AS without
       FROM read_parquet('${join(first.abs, 'series.parquet')}') WHERE eval_target`,
    );
    duck.close();
    expect(Number(row.targets)).toBeGreaterThan(500);
    expect(Number(row.without)).toBe(0);
    const cov = await asof('taxonomy', '--coverage', join(first.rel, 'manifest.json'));
    expect(cov.code, cov.stderr).toBe(0);
    expect(cov.stdout).toMatch(/Equity OHLCV Close\s+BD/);
  });

  it('exports FinTSB with the README defaults: one close series per instrument per dataset', async () => {
    const r = await asof(
      'export',
      'fintsb',
      '--manifest',
      join(first.rel, 'manifest.json'),
      '--out',
      fintsb.rel,
      '--json',
    );
    expect(r.code, r.stderr).toBe(0);
    const { k, field } = JSON.parse(r.stdout) as { k: number; field: string };
    expect(field).toBe('close');
    expect(r.stderr).toContain(`k = ${k}: the largest dataset size`);
    const { Duck } = await import('@asof/duck');
    const duck = await Duck.open();
    const rows = await duck.all<{
      dataset: string;
      n: bigint;
      entities: bigint;
      units: string[];
      fields: string[];
    }>(
      `SELECT m.dataset, count(*) AS n, count(DISTINCT coalesce(s.entity_id, s.series_id)) AS entities,
         list(DISTINCT s.detail_category ORDER BY s.detail_category) AS units, list(DISTINCT m.field) AS fields
       FROM read_parquet('${join(fintsb.abs, 'members.parquet')}') AS m
       JOIN read_parquet('${join(first.abs, 'series.parquet')}') AS s USING (series_id)
       GROUP BY m.dataset ORDER BY m.dataset`,
    );
    duck.close();
    expect(rows).toHaveLength(4 * 5);
    for (const d of rows) {
      expect(Number(d.n), d.dataset).toBe(k);
      expect(Number(d.entities), d.dataset).toBe(k);
      expect(d.fields).toEqual(['close']);
      for (const u of d.units) expect(u, d.dataset).toMatch(/ OHLCV Close$|^US Equity Index$/);
    }
    // A k the universe cannot fill fails naming the one that works.
    const big = await asof(
      'export',
      'fintsb',
      '--manifest',
      join(first.rel, 'manifest.json'),
      '--out',
      `${fintsb.rel}-300`,
      '--k',
      '300',
    );
    expect(big.code).toBe(2);
    expect(big.stderr).toContain(`use --k ${k} or fewer`);
  });

  it('trades every synthetic bar on a US session: no NYSE holiday, 13:00 New York on early closes', async () => {
    // Issue 20: the 200-instrument panel and the synthetic Yahoo charts follow the exchange calendar, like
    // real bars (holidays and early closes below are the NYSE's published 2024–2025 schedule).
    const { Duck } = await import('@asof/duck');
    const { tradingSessionGrid } = await import('@asof/source-embedded');
    const duck = await Duck.open();
    const rows = await duck.all<{ t: bigint; n: bigint }>(
      `SELECT epoch_us("timestamp") AS t, count(DISTINCT series_id) AS n
       FROM read_parquet('${join(first.abs, 'observations/frequency=BD/*.parquet')}')
       WHERE series_id LIKE 'syn:px:%' GROUP BY ALL ORDER BY t`,
    );
    duck.close();
    const ny = (us: number) => {
      const p = Object.fromEntries(
        new Intl.DateTimeFormat('en-CA', {
          timeZone: 'America/New_York',
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        })
          .formatToParts(new Date(us / 1000))
          .map((x) => [x.type, x.value]),
      );
      return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
    };
    const sessions = new Set(tradingSessionGrid('2005-01-03', '2025-12-31').map((d) => d.close));
    const bars = new Map(rows.map((r) => [ny(Number(r.t)).date, { ...ny(Number(r.t)), n: Number(r.n) }]));
    expect(rows.filter((r) => !sessions.has(Number(r.t)))).toEqual([]);
    expect(rows.length).toBe(sessions.size);
    for (const holiday of [
      '2024-11-28',
      '2024-12-25',
      '2025-01-01',
      '2025-01-09',
      '2025-07-04',
      '2025-12-25',
    ])
      expect(bars.has(holiday), holiday).toBe(false);
    for (const early of [
      '2024-07-03',
      '2024-11-29',
      '2024-12-24',
      '2025-07-03',
      '2025-11-28',
      '2025-12-24',
    ]) {
      expect(bars.get(early)?.time, early).toBe('13:00');
      expect(bars.get(early)?.n, early).toBeGreaterThanOrEqual(200 * 5);
    }
    expect(bars.get('2025-12-23')?.time).toBe('16:00');
    expect(new Set([...bars.values()].map((b) => b.time))).toEqual(new Set(['13:00', '16:00']));
  });

  it('gives every series a unit, and no eval target too short to score', async () => {
    const { Duck } = await import('@asof/duck');
    const duck = await Duck.open();
    const s = `read_parquet('${join(first.abs, 'series.parquet')}')`;
    const noUnit = await duck.all(`SELECT series_id, source FROM ${s} WHERE coalesce(trim(unit), '') = ''`);
    const sp500 = await duck.one<{ e: boolean }>(
      `SELECT eval_target AS e FROM ${s} WHERE series_id = 'vega:sp500:close'`,
    );
    duck.close();
    expect(noUnit).toEqual([]);
    // vega:sp500:close ends 2020-04-17: its only origin would hold 73 of 260 target steps.
    expect(sp500.e).toBe(false);
    const w = manifest.warnings.find((x) => x.code === 'EVAL_TARGET_TOO_SHORT');
    expect(w?.count).toBe(1);
    expect(w?.message).toContain('vega:sp500:close (73 of 260 target steps)');
  });

  it('matches the committed golden manifest (manifests/default.json)', () => {
    const golden = readManifest(join(REPO, 'manifests/default.json'));
    if (comparable(golden) !== comparable(manifest)) {
      writeFileSync(join(REPO, 'manifests/default-changed.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    }
    expect(
      comparable(manifest),
      'manifest drifted; diff manifests/default-changed.json, then npm run golden:default',
    ).toBe(comparable(golden));
  });

  it('rebuilds byte-identically (same dataset_id, same bytes)', async () => {
    const r = await asof('build', 'pipelines/default.json', '--out', second.rel);
    expect(r.code, r.stderr).toBe(0);
    const again = readManifest(join(second.abs, 'manifest.json'));
    expect(again.dataset_id).toBe(manifest.dataset_id);
    for (const out of manifest.outputs) {
      expect(
        readFileSync(join(second.abs, out.path)).equals(readFileSync(join(first.abs, out.path))),
        out.path,
      ).toBe(true);
    }
    expect(readFileSync(join(second.abs, 'manifest.json'), 'utf8')).toBe(
      readFileSync(join(first.abs, 'manifest.json'), 'utf8'),
    );
  });

  it('makes verify fail naming a file with one changed byte', async () => {
    for (const out of manifest.outputs) {
      const copy = scratchOut('tamper');
      // A copy of the files, not of the link: copying the link (cpSync's default) made the copy point at the
      // shared universe, and each changed byte landed in it.
      privateCopy(first.abs, copy.abs);
      const file = join(copy.abs, out.path);
      const bytes = readFileSync(file);
      bytes[Math.floor(bytes.length / 2)] ^= 0x01;
      writeFileSync(file, bytes);
      const r = await asof('verify', join(copy.rel, 'manifest.json'));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${out.path}: sha256`);
      removeOutput(copy.abs);
    }
    expect(existsSync(first.abs)).toBe(true);
  });
});
