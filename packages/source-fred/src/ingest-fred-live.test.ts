import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CollectingSink } from '@asof/schema';
import { createVirtualClock, type MockFredSeries, startMockFredServer } from '@asof/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { generateSyntheticAlfred } from './generate-synthetic-alfred.ts';
import { ingestFredLive } from './ingest-fred-live.ts';
import { ingestFredRawDir } from './ingest-fred-raw-dir.ts';

const KEY = '0123456789abcdef0123456789abcdef';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** Mock FRED series built from the synthetic ALFRED generator (so the live path sees realistic vintages). */
function mockSeries(): {
  series: MockFredSeries[];
  mapping: ReturnType<typeof generateSyntheticAlfred>['mapping'];
  releases: Record<number, { name: string; dates: string[] }>;
} {
  const syn = generateSyntheticAlfred({ seed: 3, series: ['SYNGDP', 'SYNCPI'], months: 60 });
  const read = (name: string) =>
    JSON.parse(Buffer.from(syn.files.find((f) => f.name === name)!.bytes).toString('utf8'));
  const series = syn.series.map((id) => {
    const meta = read(`fred_api_series_${id}.json`).seriess[0];
    return {
      id,
      title: meta.title,
      frequency_short: meta.frequency_short,
      units: meta.units,
      seasonal_adjustment_short: meta.seasonal_adjustment_short,
      releaseId: read(`fred_api_series_release_${id}.json`).releases[0].id,
      rows: read(`fred_api_series_observations_${id}_all_vintages.json`).observations,
    };
  });
  const releases: Record<number, { name: string; dates: string[] }> = {};
  for (const rid of [10, 53]) {
    const dates = read(`fred_api_release_dates_${rid}.json`).release_dates.map(
      (d: { date: string }) => d.date,
    );
    releases[rid] = { name: `Release ${rid}`, dates };
  }
  return { series, mapping: syn.mapping, releases };
}

describe('ingestFredLive against a mock FRED on 127.0.0.1', () => {
  it('maps every vintage, lists raw inputs without the key, and its saved raw dir replays to the same rows', async () => {
    const { series, mapping, releases } = mockSeries();
    const clock = createVirtualClock();
    const server = await startMockFredServer({ apiKey: KEY, series, clock, releases });
    cleanups.push(server.close);
    const raw = mkdtempSync(join(tmpdir(), 'asof-fred-raw-'));
    const cache = mkdtempSync(join(tmpdir(), 'asof-fred-cache-'));
    cleanups.push(() => rmSync(raw, { recursive: true, force: true }));
    cleanups.push(() => rmSync(cache, { recursive: true, force: true }));
    const logs: string[] = [];
    const live = new CollectingSink();
    const summary = await ingestFredLive(live, {
      series: ['SYNGDP', 'SYNCPI', 'NOSUCH'],
      mapping,
      continueOnError: true,
      releaseDates: true,
      saveRawDir: raw,
      log: (l) => logs.push(l),
      client: { apiKey: KEY, baseUrl: server.baseUrl, clock, cacheDir: cache, log: (l) => logs.push(l) },
    });
    expect(summary.series.map((s) => s.fredId)).toEqual(['SYNGDP', 'SYNCPI']);
    expect(summary.failed.map((f) => f.fredId)).toEqual(['NOSUCH']);
    expect(summary.failed[0].message).toMatch(/series NOSUCH.*does not exist/);
    expect(live.warnings.some((w) => w.code === 'FRED_SERIES_FAILED')).toBe(true);
    expect(live.observations.length).toBeGreaterThan(100);
    const revs = summary.series.reduce((n, s) => n + s.revisions, 0);
    expect(revs).toBeGreaterThan(20);
    // Raw inputs are the real responses, keyed by URL without the key.
    expect(live.inputs.length).toBe(summary.files);
    expect(
      live.inputs.every((i) => i.key.startsWith(server.baseUrl) && /^[0-9a-f]{64}$/.test(i.sha256)),
    ).toBe(true);

    expect(readdirSync(raw).sort()).toContain('fred_api_release_dates_10.json');
    expect(server.requests.filter((r) => r.path === 'release/dates')).toHaveLength(2);
    const replay = new CollectingSink();
    await ingestFredRawDir(raw, replay, { mapping });
    const bySeries = <T extends { series_id: string }>(rows: T[]) =>
      [...rows].sort((a, b) => (a.series_id < b.series_id ? -1 : a.series_id > b.series_id ? 1 : 0));
    expect(bySeries(replay.observations)).toEqual(bySeries(live.observations));
    expect(bySeries(replay.series)).toEqual(bySeries(live.series));

    // The key appears nowhere: sink (manifest inputs), warnings, logs, cache files, saved raw files.
    const outputs = [
      JSON.stringify(live),
      JSON.stringify(summary),
      ...logs,
      ...readdirSync(raw).map((f) => readFileSync(join(raw, f), 'utf8')),
      ...readdirSync(cache, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8')),
    ];
    expect(outputs.length).toBeGreaterThan(8);
    for (const text of outputs) expect(text).not.toContain(KEY);
  });

  it('stops on the first failing series unless continueOnError is set', async () => {
    const { series, mapping } = mockSeries();
    const clock = createVirtualClock();
    const server = await startMockFredServer({ apiKey: KEY, series, clock });
    cleanups.push(server.close);
    await expect(
      ingestFredLive(new CollectingSink(), {
        series: ['NOSUCH', 'SYNGDP'],
        mapping,
        client: { apiKey: KEY, baseUrl: server.baseUrl, clock, log: () => {} },
      }),
    ).rejects.toThrow(/FRED refused series NOSUCH/);
    await expect(
      ingestFredLive(new CollectingSink(), {
        series: ['SYNGDP'],
        mapping,
        client: { apiKey: 'ffffffffffffffffffffffffffffffff', baseUrl: server.baseUrl, clock, log: () => {} },
      }),
    ).rejects.toThrow(/api_key is not registered.*ASOF_FRED_API_KEY/);
  });
});
