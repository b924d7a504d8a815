import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVirtualClock, manyVintageSeries, maxInWindow, startMockFredServer } from '@asof/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createFredClient,
  planRealtimeWindows,
  resolveFredApiKey,
  stitchObservationChunks,
} from './fetch-fred.ts';
import { FredApiError } from './fred-api-error.ts';

const KEY = 'abcdef0123456789abcdef0123456789';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? listFiles(p) : [p];
  });
}

describe('planRealtimeWindows', () => {
  it('covers 1776-07-04…9999-12-31 without gaps or overlaps, at most max vintage dates each', () => {
    const dates = Array.from({ length: 45 }, (_, i) => `2000-01-${String((i % 28) + 1).padStart(2, '0')}`)
      .slice(0, 28)
      .concat(Array.from({ length: 17 }, (_, i) => `2001-02-${String(i + 1).padStart(2, '0')}`));
    const w = planRealtimeWindows(dates, 20);
    expect(w).toHaveLength(3);
    expect(w[0].realtime_start).toBe('1776-07-04');
    expect(w[2].realtime_end).toBe('9999-12-31');
    expect(w[0].realtime_end).toBe('2000-01-20');
    expect(w[1].realtime_start).toBe('2000-01-21');
    for (const win of w) {
      expect(
        dates.filter((d) => d >= win.realtime_start && d <= win.realtime_end).length,
      ).toBeLessThanOrEqual(20);
    }
    expect(planRealtimeWindows(dates, 2000)).toEqual([
      { realtime_start: '1776-07-04', realtime_end: '9999-12-31' },
    ]);
  });

  it('merges a vintage split by a window seam and keeps real changes at the seam', () => {
    const out = stitchObservationChunks([
      {
        realtime_start: '1776-07-04',
        observations: [
          { date: '2000-01-01', realtime_start: '2000-02-01', realtime_end: '2000-02-29', value: '1' },
        ],
      },
      {
        realtime_start: '2000-03-01',
        observations: [
          { date: '2000-01-01', realtime_start: '2000-03-01', realtime_end: '9999-12-31', value: '1' },
          { date: '2000-02-01', realtime_start: '2000-03-01', realtime_end: '9999-12-31', value: '5' },
        ],
      },
    ]);
    expect(out).toEqual([
      { date: '2000-01-01', realtime_start: '2000-02-01', realtime_end: '9999-12-31', value: '1' },
      { date: '2000-02-01', realtime_start: '2000-03-01', realtime_end: '9999-12-31', value: '5' },
    ]);
  });
});

describe('resolveFredApiKey', () => {
  it('refuses a missing or malformed key without echoing it', () => {
    expect(() => resolveFredApiKey('')).toThrow(/ASOF_FRED_API_KEY is not set/);
    try {
      resolveFredApiKey('secret-but-wrong');
      expect.unreachable();
    } catch (e) {
      expect(String((e as Error).message)).not.toContain('secret-but-wrong');
    }
  });
});

describe('createFredClient against a mock FRED on 127.0.0.1', () => {
  it('fetches a 4,500-vintage series in chunks with none lost, ≤120 requests per 60 s, retrying 429 and 5xx', async () => {
    const clock = createVirtualClock(1_000_000);
    const series = manyVintageSeries('MOCK4500', 4500);
    const server = await startMockFredServer({
      apiKey: KEY,
      series: [series],
      releases: { 18: { name: 'H.15 Selected Interest Rates', dates: ['2000-01-03'] } },
      clock,
      inject: (i) => (i === 4 ? 429 : i === 9 ? 503 : i === 10 ? 502 : undefined),
    });
    closers.push(server.close);
    const cacheDir = mkdtempSync(join(tmpdir(), 'asof-fred-cache-'));
    closers.push(async () => rmSync(cacheDir, { recursive: true, force: true }));
    const logs: string[] = [];
    const client = createFredClient({
      apiKey: KEY,
      baseUrl: server.baseUrl,
      clock,
      cacheDir,
      log: (l) => logs.push(l),
      // Small pages force >120 requests, so the per-minute limit has to hold the client back.
      observationsPageLimit: 60,
    });
    closers.push(client.close);
    const bundle = await client.fetchSeries('MOCK4500', { releaseDates: true });

    expect(bundle.windows).toHaveLength(3);
    const sortKey = (o: { date: string; realtime_start: string }) => `${o.date}|${o.realtime_start}`;
    expect(bundle.observations.map(sortKey)).toEqual(series.rows.map(sortKey));
    expect(bundle.observations).toEqual(series.rows);

    const times = server.requests.map((r) => r.at);
    expect(server.requests.length).toBeGreaterThan(240);
    expect(maxInWindow(times, 60_000)).toBeLessThanOrEqual(120);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(120_000);
    expect(server.requests.filter((r) => r.status === 429)).toHaveLength(1);
    expect(server.requests.filter((r) => r.status >= 500)).toHaveLength(2);
    expect(client.stats().retries).toBeGreaterThanOrEqual(3);
    expect(server.requests.some((r) => r.path === 'series/observations' && r.status === 400)).toBe(false);

    // The key never reaches the cache, logs or the reported URLs.
    for (const f of listFiles(cacheDir)) expect(readFileSync(f, 'utf8')).not.toContain(KEY);
    for (const l of logs) expect(l).not.toContain(KEY);
    for (const r of bundle.responses) expect(r.url).not.toContain(KEY);
    expect(JSON.stringify(bundle)).not.toContain(KEY);

    // --offline replays the cache without a key and without the network.
    const before = server.requests.length;
    const offline = createFredClient({
      apiKey: '',
      baseUrl: server.baseUrl,
      clock,
      cacheDir,
      offline: true,
      observationsPageLimit: 60,
    });
    closers.push(offline.close);
    const again = await offline.fetchSeries('MOCK4500', { releaseDates: true });
    expect(again.observations).toEqual(bundle.observations);
    expect(server.requests.length).toBe(before);
    await expect(offline.fetchSeries('OTHER')).rejects.toThrow(/offline mode: no cached response/);
  }, 30_000);

  it('turns FRED error JSON into FredApiError naming the series, with the key scrubbed', async () => {
    const clock = createVirtualClock();
    const server = await startMockFredServer({ apiKey: KEY, series: [manyVintageSeries('OK', 10)], clock });
    closers.push(server.close);
    const logs: string[] = [];
    const client = createFredClient({
      apiKey: KEY,
      baseUrl: server.baseUrl,
      clock,
      log: (l) => logs.push(l),
    });
    closers.push(client.close);
    let error: unknown;
    try {
      await client.fetchSeries('NOPE');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FredApiError);
    const err = error as FredApiError;
    expect(err.message).toMatch(/series NOPE/);
    expect(err.message).toMatch(/The series does not exist/);
    expect(err.errorCode).toBe(400);
    expect(err.seriesId).toBe('NOPE');
    const everything = [err.message, JSON.stringify(err.context), String(err.stack), ...logs].join('\n');
    expect(everything).not.toContain(KEY);
  });

  it('refuses a window with too many vintage dates when chunking is off (the mock enforces the limit)', async () => {
    const clock = createVirtualClock();
    const server = await startMockFredServer({
      apiKey: KEY,
      series: [manyVintageSeries('BIG', 30)],
      clock,
      maxVintageDates: 20,
    });
    closers.push(server.close);
    const unchunked = createFredClient({
      apiKey: KEY,
      baseUrl: server.baseUrl,
      clock,
      maxVintageDatesPerRequest: 100,
    });
    closers.push(unchunked.close);
    await expect(unchunked.fetchSeries('BIG')).rejects.toThrow(/series BIG.*maximum number of vintage dates/);
    const chunked = createFredClient({
      apiKey: KEY,
      baseUrl: server.baseUrl,
      clock,
      maxVintageDatesPerRequest: 20,
    });
    closers.push(chunked.close);
    const b = await chunked.fetchSeries('BIG');
    expect(b.windows).toHaveLength(2);
    expect(b.observations).toEqual(manyVintageSeries('BIG', 30).rows);
  });
});
