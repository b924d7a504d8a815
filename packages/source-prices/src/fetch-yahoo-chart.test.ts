import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpClient, type HttpClient, systemClock } from '@asof/http';
import { CollectingSink } from '@asof/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadYahooCharts, fetchYahooChart, yahooChartUrl } from './fetch-yahoo-chart.ts';
import { generateSyntheticYahooCharts } from './generate-synthetic-yahoo-charts.ts';
import { ingestPricesRawDir } from './ingest-prices-raw-dir.ts';

const [syna] = generateSyntheticYahooCharts({ seed: 3, from: '2021-06-01', to: '2021-09-30' });
const requests: string[] = [];
let server: Server;
let base: string;
let client: HttpClient;
const clients: HttpClient[] = [];
/** A client with its own clock object: rate-limit pauses are shared per clock, and a 429 pauses the host. */
function freshClient(): HttpClient {
  const c = createHttpClient({ retries: 0, noWait: true, log: () => {}, clock: { ...systemClock } });
  clients.push(c);
  return c;
}
const out = mkdtempSync(join(tmpdir(), 'asof-yahoo-'));

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const sym = decodeURIComponent((req.url ?? '').split('/chart/')[1]?.split('?')[0] ?? '');
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    if (sym === 'SYNA') send(200, 'application/json', syna.text);
    else if (sym === 'AUTH')
      send(
        401,
        'application/json',
        '{"finance":{"error":{"code":"Unauthorized","description":"Invalid Crumb"}}}',
      );
    else if (sym === 'BLOCK') send(403, 'text/html', '<html>Forbidden</html>');
    else if (sym === 'BUSY') send(429, 'text/plain', 'Too Many Requests');
    else if (sym === 'CONSENT') send(200, 'text/html', '<!DOCTYPE html><html><form action="consent">');
    else
      send(
        404,
        'application/json',
        '{"chart":{"result":null,"error":{"code":"Not Found","description":"No data found, symbol may be delisted"}}}',
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = freshClient();
});

afterAll(async () => {
  for (const c of clients) await c.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(out, { recursive: true, force: true });
});

const now = () => Date.UTC(2025, 0, 15, 17, 0, 0);

describe('fetchYahooChart', () => {
  it('builds the v8 chart URL with daily bars and div|split events', () => {
    expect(yahooChartUrl('^GSPC', { period2: 1700000000 })).toBe(
      'https://query2.finance.yahoo.com/v8/finance/chart/%5EGSPC?period1=0&period2=1700000000&interval=1d&events=div%7Csplit&includeAdjustedClose=true',
    );
  });

  it('downloads and parses a chart', async () => {
    const got = await fetchYahooChart('SYNA', { client, baseUrl: base, now });
    expect(got.parsed.symbol).toBe('SYNA');
    expect(got.parsed.bars.length).toBeGreaterThan(80);
    expect(got.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(got.downloadedAt).toBe(now() * 1000);
    expect(requests.at(-1)).toContain('period2=1736960400');
  });

  it('turns refusals into YAHOO_REFUSED with the reason and the offline way forward', async () => {
    const cases: [string, RegExp][] = [
      ['AUTH', /HTTP 401: Yahoo now asks for a session cookie and crumb/],
      ['BLOCK', /HTTP 403: Yahoo blocks this client/],
      ['BUSY', /HTTP 429: Yahoo rate-limited this client/],
      [
        'CONSENT',
        /returned an HTML page \(consent, login or error page\) instead of chart JSON \(HTTP 200\)/,
      ],
      ['NOPE', /HTTP 404: Yahoo does not know this symbol/],
    ];
    for (const [sym, re] of cases) {
      const err = await fetchYahooChart(sym, { client: freshClient(), baseUrl: base, now }).catch(
        (e: unknown) => e,
      );
      expect(err, sym).toMatchObject({ code: 'YAHOO_REFUSED' });
      expect((err as Error).message, sym).toMatch(re);
      expect((err as Error).message).toContain('asof ingest prices --raw-dir');
    }
  });

  it('writes downloads with sidecars that ingestPricesRawDir replays offline, and lists failures', async () => {
    const r = await downloadYahooCharts(['SYNA', 'BUSY'], out, { client: freshClient(), baseUrl: base, now });
    expect(r.files).toEqual(['SYNA_dl-2025-01-15.json']);
    expect(r.failures.map((f) => [f.symbol, f.code])).toEqual([['BUSY', 'YAHOO_REFUSED']]);
    const meta = JSON.parse(readFileSync(join(out, 'SYNA_dl-2025-01-15.meta.json'), 'utf8'));
    expect(meta).toMatchObject({ symbol: 'SYNA', downloaded_at: '2025-01-15T17:00:00.000000Z' });
    expect(meta.splits).toEqual([{ ex_date: '2021-08-31', ratio: 4 }]);
    const sink = new CollectingSink();
    const ing = ingestPricesRawDir(out, sink);
    expect(ing.files[0].downloadedAtSource).toBe('sidecar');
    expect(sink.corporateActions.filter((a) => a.kind === 'split').map((a) => a.ex_date)).toEqual([
      '2021-08-31',
    ]);
  });
});
