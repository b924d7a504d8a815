/**
 * Rate-limit bench: a mock SEC on 127.0.0.1 serving 100 synthetic companies' companyfacts JSON (gzip), which
 * answers with SEC's 403 "Request Rate Threshold Exceeded" page if it ever sees more than 10 requests in any
 * 1-second window. Prints, as measured by the server: max requests in any 1-second window and the sustained
 * rate. Target: never > 10, sustained >= 8/s.
 *
 * For contrast it also drives the same server with p-queue's own fixed window (interval 1000, intervalCap 10,
 * strict false), which lets up to 2N requests through across a window boundary.
 *
 *   npx tsx bench/rate.ts [latencyMs=20] [companies=100]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import PQueue from 'p-queue';
import { request } from 'undici';
import { createHttpClient } from '../src/index.ts';

const latencyMs = Number(process.argv[2] ?? 20);
const companies = Number(process.argv[3] ?? 100);
const LIMIT = 10;
const WINDOW = 1000;

function maxInAnyWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < sorted.length; hi++) {
    while (sorted[hi] - sorted[lo] >= windowMs) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

function companyfacts(cik: number): Buffer {
  const facts = Array.from({ length: 400 }, (_, i) => ({
    end: `20${10 + (i % 14)}-12-31`,
    val: (cik * 1000 + i) * 1.5,
    accn: `0000${cik}-23-0000${i}`,
    fy: 2010 + (i % 14),
    fp: 'FY',
    form: '10-K',
    filed: `20${11 + (i % 14)}-02-15`,
  }));
  const body = {
    cik,
    entityName: `Synthetic Co ${cik}`,
    facts: { 'us-gaap': { Revenues: { units: { USD: facts } } } },
  };
  return gzipSync(JSON.stringify(body));
}

async function startMockSec() {
  const starts: number[] = [];
  let thresholdPages = 0;
  const bodies = new Map<number, Buffer>();
  const server = createServer((req, res) => {
    const now = performance.now();
    starts.push(now);
    const recent = starts.filter((t) => now - t < WINDOW).length;
    if (recent > LIMIT) {
      thresholdPages++;
      res.statusCode = 403;
      res.end('<html><title>SEC.gov | Request Rate Threshold Exceeded</title></html>');
      return;
    }
    const cik = Number(/CIK(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
    let body = bodies.get(cik);
    if (body === undefined) {
      body = companyfacts(cik);
      bodies.set(cik, body);
    }
    setTimeout(() => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('content-encoding', 'gzip');
      res.end(body);
    }, latencyMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    starts,
    thresholdPages: () => thresholdPages,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function report(label: string, starts: number[], wallMs: number, thresholdPages: number): void {
  const sorted = [...starts].sort((a, b) => a - b);
  // Sustained = requests per second of wall time for the whole run (first request to last body).
  console.log(
    `${label.padEnd(34)} requests=${sorted.length} maxIn1s=${maxInAnyWindow(sorted, WINDOW)} ` +
      `sustained=${((sorted.length / wallMs) * 1000).toFixed(2)}/s ` +
      `wall=${(wallMs / 1000).toFixed(2)}s 403pages=${thresholdPages}`,
  );
}

const urls = (origin: string) =>
  Array.from(
    { length: companies },
    (_, i) => `${origin}/api/xbrl/companyfacts/CIK${String(1000 + i).padStart(10, '0')}.json`,
  );

// 1. @asof/http with the SEC policy.
{
  const sec = await startMockSec();
  const cacheDir = await mkdtemp(join(tmpdir(), 'asof-http-bench-'));
  const http = createHttpClient({
    hosts: { '127.0.0.1': { maxPerInterval: LIMIT, intervalMs: WINDOW, concurrency: LIMIT } },
    cacheDir,
    noWait: true,
    log: () => {},
  });
  const t0 = performance.now();
  const results = await Promise.all(urls(sec.origin).map((u) => http.getJson<{ cik: number }>(u)));
  const wall = performance.now() - t0;
  if (results.some((r, i) => r.json.cik !== 1000 + i)) throw new Error('wrong body');
  report('@asof/http sliding window', sec.starts, wall, sec.thresholdPages());
  // Re-run from the cache: no request reaches the server.
  const before = sec.starts.length;
  const t1 = performance.now();
  await Promise.all(urls(sec.origin).map((u) => http.getJson(u)));
  console.log(
    `${'@asof/http re-run from cache'.padEnd(34)} requests=${sec.starts.length - before} wall=${((performance.now() - t1) / 1000).toFixed(2)}s`,
  );
  await http.close();
  await sec.close();
  await rm(cacheDir, { recursive: true, force: true });
}

// 2. p-queue fixed window, for contrast (not used by @asof/http).
{
  const sec = await startMockSec();
  const queue = new PQueue({ interval: WINDOW, intervalCap: LIMIT, concurrency: LIMIT });
  const t0 = performance.now();
  // Start mid-window so bursts straddle the boundary, as happens in a long run.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await Promise.all(
    urls(sec.origin).map((u) =>
      queue.add(async () => {
        const res = await request(u);
        await res.body.arrayBuffer();
      }),
    ),
  );
  report('p-queue interval/intervalCap', sec.starts, performance.now() - t0, sec.thresholdPages());
  await sec.close();
}
