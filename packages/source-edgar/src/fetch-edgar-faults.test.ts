import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createHttpClient } from '@asof/http';
import { CollectingSink } from '@asof/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifySecResponse } from './classify-sec-response.ts';
import { ingestEdgarLive } from './fetch-edgar.ts';
import { generateSyntheticEdgar, ingestSyntheticEdgar } from './generate-synthetic-edgar.ts';

const UA = 'Fault Test faults@example.com';
const COMPANIES = 21;
const FAULTS = ['500', 'reset', 'truncated-gzip', 'malformed-json', '429', 'threshold-403', 'slow'] as const;

const files = new Map<string, unknown>();
for (const f of generateSyntheticEdgar({
  seed: 11,
  companies: COMPANIES,
  firstFiscalYear: 2018,
  fiscalYears: 3,
})) {
  files.set(f.name, f.json);
}
const tickers = Object.values(
  files.get('company_tickers.json') as Record<string, { ticker: string; cik_str: number }>,
);

/** Path → file name of the synthetic raw set, as SEC serves them. */
function route(path: string): string | undefined {
  if (path === '/files/company_tickers.json') return 'company_tickers.json';
  const facts = /^\/api\/xbrl\/companyfacts\/CIK(\d{10})\.json$/.exec(path);
  if (facts) return [...files.keys()].find((n) => n.startsWith(`companyfacts_CIK${facts[1]}_`));
  const subs = /^\/submissions\/CIK(\d{10})\.json$/.exec(path);
  if (subs)
    return [...files.keys()].find((n) => new RegExp(`^submissions_CIK${subs[1]}_[^-]+\\.json$`).test(n));
  const page = /^\/submissions\/(CIK\d{10}-submissions-\d{3}\.json)$/.exec(path);
  if (page)
    return [...files.keys()].find(
      (n) => n.startsWith(page[1].replace('.json', '')) || n.includes(page[1].slice(0, 27)),
    );
  return undefined;
}

let requests = 0;
const seen = new Map<string, number>();
let alwaysFail = '';
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  requests++;
  const path = req.url ?? '';
  const n = (seen.get(path) ?? 0) + 1;
  seen.set(path, n);
  const name = route(path);
  if (!name) {
    res.writeHead(404).end('not found');
    return;
  }
  const body = gzipSync(JSON.stringify(files.get(name)));
  const facts = /companyfacts\/CIK\d{7}(\d{3})/.exec(path);
  const fault =
    path === alwaysFail ? '500' : facts && n === 1 ? FAULTS[Number(facts[1]) % FAULTS.length] : undefined;
  switch (fault) {
    case '500':
      res.writeHead(500).end('boom');
      return;
    case 'reset':
      req.socket.destroy();
      return;
    case 'truncated-gzip':
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(body.subarray(0, Math.floor(body.length / 2)));
      return;
    case 'malformed-json':
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"cik": 1, "facts": {');
      return;
    case '429':
      res.writeHead(429).end('Too Many Requests');
      return;
    case 'threshold-403':
      res
        .writeHead(403, { 'content-type': 'text/html' })
        .end('<html><title>SEC.gov | Request Rate Threshold Exceeded</title></html>');
      return;
    case 'slow':
      setTimeout(() => res.writeHead(200, { 'content-encoding': 'gzip' }).end(body), 1500);
      return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(body);
});

let origin = '';
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A virtual clock: the 10-minute rate-limit pauses pass instantly. */
function virtualClock() {
  let t = 1_000_000;
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += Math.max(0, ms);
    },
  };
}

function client(cacheDir: string, offline = false) {
  return createHttpClient({
    hosts: { '127.0.0.1': { maxPerInterval: 10, intervalMs: 1000, rateLimitPauseMs: 600_000 } },
    headers: { 'user-agent': UA },
    secretValues: [UA],
    cacheDir,
    offline,
    clock: virtualClock(),
    timeoutMs: 500,
    retries: 4,
    backoffBaseMs: 1,
    backoffMaxMs: 5,
    classifyResponse: classifySecResponse,
  });
}

describe('EDGAR live path under fault injection (127.0.0.1)', () => {
  const cacheDir = mkdtempSync(join(tmpdir(), 'asof-edgar-faults-'));
  const symbols = tickers.map((t) => t.ticker);

  it('ends with every company after bounded retries, and a re-run from the cache loses nothing', async () => {
    const expected = new CollectingSink();
    ingestSyntheticEdgar(expected, { seed: 11, companies: COMPANIES, firstFiscalYear: 2018, fiscalYears: 3 });

    const live = new CollectingSink();
    const c = client(cacheDir);
    const summary = await ingestEdgarLive(live, {
      tickers: symbols,
      client: c,
      env: { ASOF_SEC_USER_AGENT: UA },
      dataOrigin: origin,
      wwwOrigin: origin,
    });
    expect(c.stats().retries).toBeGreaterThanOrEqual(COMPANIES);
    await c.close();
    expect(summary.ingested).toBe(COMPANIES);
    // Same facts as the raw files give (ids differ only in the synthetic flag prefix).
    const key = (o: { series_id: string; timestamp: number; available_at: number; value: number }) =>
      `${o.series_id.replace(/^syn:/, '')}|${o.timestamp}|${o.available_at}|${o.value}`;
    expect(live.observations.map(key).sort()).toEqual(expected.observations.map(key).sort());

    const before = requests;
    const replay = new CollectingSink();
    const offline = client(cacheDir, true);
    await ingestEdgarLive(replay, {
      tickers: symbols,
      client: offline,
      env: { ASOF_SEC_USER_AGENT: UA },
      dataOrigin: origin,
      wwwOrigin: origin,
    });
    await offline.close();
    expect(requests).toBe(before);
    expect(replay.observations.map(key).sort()).toEqual(live.observations.map(key).sort());
    for (const f of readdirSync(cacheDir, { recursive: true }) as string[]) {
      if (f.endsWith('.json')) expect(readFileSync(join(cacheDir, f), 'utf8')).not.toContain(UA);
    }
  }, 120_000);

  it('fails with the CIK and URL named when a company keeps failing', async () => {
    const cik = String(tickers[0].cik_str).padStart(10, '0');
    alwaysFail = `/api/xbrl/companyfacts/CIK${cik}.json`;
    const c = client(mkdtempSync(join(tmpdir(), 'asof-edgar-fail-')));
    const err = await ingestEdgarLive(new CollectingSink(), {
      tickers: [tickers[0].ticker],
      client: c,
      env: { ASOF_SEC_USER_AGENT: UA },
      dataOrigin: origin,
      wwwOrigin: origin,
    }).catch((e: Error) => e);
    await c.close();
    alwaysFail = '';
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain(`CIK${cik}`);
    expect((err as Error).message).toContain('/api/xbrl/companyfacts/');
    expect((err as Error).message).not.toContain(UA);
  }, 60_000);
});
