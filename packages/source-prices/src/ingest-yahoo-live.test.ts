import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpClient, systemClock } from '@asof/http';
import { CollectingSink } from '@asof/schema';
import { MockAgent } from 'undici';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { generateSyntheticYahooCharts } from './generate-synthetic-yahoo-charts.ts';
import { ingestYahooLive } from './ingest-yahoo-live.ts';

const [syna] = generateSyntheticYahooCharts({ seed: 3, from: '2021-06-01', to: '2021-07-30' });
const root = mkdtempSync(join(tmpdir(), 'asof-yahoo-live-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const agents: MockAgent[] = [];
afterEach(async () => {
  while (agents.length > 0) await agents.pop()!.close();
});

/** A MockAgent for Yahoo's chart host: `answer` per symbol, every other host refused (no network). */
function yahoo(answer: (symbol: string) => { status: number; body: string } | 'no-network') {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agents.push(agent);
  const seen: string[] = [];
  agent
    .get('https://query2.finance.yahoo.com')
    .intercept({ path: () => true, method: 'GET' })
    .reply((req) => {
      const symbol = decodeURIComponent(req.path.split('/chart/')[1].split('?')[0]);
      seen.push(symbol);
      const a = answer(symbol);
      if (a === 'no-network')
        throw Object.assign(new Error('getaddrinfo ENOTFOUND query2.finance.yahoo.com'), {
          code: 'ENOTFOUND',
        });
      return {
        statusCode: a.status,
        data: a.body,
        responseOptions: { headers: { 'content-type': 'application/json' } },
      };
    })
    .persist();
  const client = createHttpClient({
    dispatcher: agent,
    retries: 0,
    noWait: true,
    log: () => {},
    clock: { ...systemClock },
  });
  return { client, seen };
}

describe('ingestYahooLive', () => {
  it('downloads into the folder and reads it like a raw directory', async () => {
    const { client } = yahoo((s) =>
      s === 'SYNA' ? { status: 200, body: syna.text } : { status: 404, body: '{}' },
    );
    const dir = join(root, 'ok');
    const sink = new CollectingSink();
    const r = await ingestYahooLive(sink, { symbols: ['SYNA', 'NOPE'], dir, client });
    expect(r.files.map((f) => [f.symbol, f.downloadedAtSource])).toEqual([['SYNA', 'sidecar']]);
    expect(r.failures.map((f) => [f.symbol, f.code])).toEqual([['NOPE', 'YAHOO_REFUSED']]);
    expect(sink.series.some((s) => s.series_id === 'px:SYNA:close')).toBe(true);
  });

  it('with no network, stops at the first symbol naming the host and the --raw-dir alternative, reading no folder', async () => {
    const { client, seen } = yahoo(() => 'no-network');
    const dir = join(root, 'offline');
    const err = (await ingestYahooLive(new CollectingSink(), {
      symbols: ['AAPL', 'MSFT'],
      dir,
      client,
    }).catch((e: unknown) => e)) as Error & { code: string; exitCode: number };
    expect(err.code).toBe('YAHOO_UNREACHABLE');
    expect(err.exitCode).toBe(1);
    expect(err.message).toMatch(
      /^Yahoo chart download for AAPL: cannot reach query2\.finance\.yahoo\.com \(ENOTFOUND/,
    );
    expect(err.message).toContain('ingest it with `asof ingest prices --raw-dir DIR`');
    expect(err.message).not.toContain(dir);
    expect(err.message).not.toContain('\n');
    expect(seen).toEqual(['AAPL']);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('when every symbol is refused, says so instead of reading an empty download folder', async () => {
    const { client } = yahoo(() => ({ status: 401, body: '{"finance":{"error":{"code":"Unauthorized"}}}' }));
    const dir = join(root, 'refused');
    const err = (await ingestYahooLive(new CollectingSink(), {
      symbols: ['AAPL', 'MSFT'],
      dir,
      client,
    }).catch((e: unknown) => e)) as Error & { code: string };
    expect(err.code).toBe('YAHOO_NOTHING_DOWNLOADED');
    expect(err.message).toMatch(
      /^Yahoo: none of the 2 symbol\(s\) could be downloaded \(AAPL, MSFT\); first: Yahoo chart download for AAPL failed \(HTTP 401/,
    );
    expect(err.message).not.toMatch(/raw directory|cannot list/);
    expect(existsSync(dir)).toBe(true);
  });
});
