import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from './clock.ts';
import { createHttpClient, type HttpClientOptions } from './create-http-client.ts';
import { HttpError, OfflineCacheMissError } from './http-error.ts';
import { sha256Hex } from './response-cache.ts';
import { createFakeClock, maxInAnyWindow, startTestServer, type TestServer } from './start-test-server.ts';

const UA = 'Asof Tester asof.tester@example.com';
const KEY = 'fredkey0123456789abcdef';
/** A host's own rate-limit page, served as 403: only a classifier that knows the host reads it as a pause. */
const THROTTLE_PAGE =
  '<html><title>Example API | Slow Down</title><p>Too many requests from your address</p></html>';
const classifyThrottlePage: HttpClientOptions['classifyResponse'] = (response) =>
  response.status === 403 && response.text.includes('Slow Down')
    ? { kind: 'rate-limited', reason: 'HTTP 403 "Slow Down"' }
    : undefined;

let dir: string;
let servers: TestServer[] = [];
let lines: string[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'asof-http-'));
  servers = [];
  lines = [];
});

afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

async function serve(handler: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const server = await startTestServer(handler);
  servers.push(server);
  return server;
}

/** Fast defaults: fake clock (backoff and pauses are instant), short timeout, generous rate. */
function client(extra: HttpClientOptions = {}) {
  return createHttpClient({
    clock: createFakeClock(),
    defaultPolicy: { maxPerInterval: 100, intervalMs: 1000, concurrency: 8, rateLimitPauseMs: 600_000 },
    headers: { 'user-agent': UA },
    secretParams: ['api_key'],
    secretValues: [KEY],
    cacheDir: join(dir, 'cache'),
    timeoutMs: 2000,
    log: (line) => lines.push(line),
    ...extra,
  });
}

async function readAllFiles(root: string): Promise<string> {
  let out = '';
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out += await readFile(join(entry.parentPath, entry.name), 'utf8');
  }
  return out;
}

function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('createHttpClient: rate window', () => {
  it('never lets more than N requests start in any window (server-side start times), and keeps the pace', async () => {
    const server = await serve((_req, res) => {
      // Some latency, so concurrency and the window interact.
      setTimeout(() => res.end('{"ok":true}'), 15);
    });
    const http = createHttpClient({
      clock: { ...systemClock }, // a private clock object: this test's window is not shared with other tests
      defaultPolicy: { maxPerInterval: 10, intervalMs: 200, concurrency: 10 },
    });
    const started = performance.now();
    await Promise.all(Array.from({ length: 50 }, (_, i) => http.getJson(`${server.origin}/c/${i}`)));
    const elapsed = performance.now() - started;
    await http.close();
    const times = server.seen.map((s) => s.at);
    expect(times).toHaveLength(50);
    expect(maxInAnyWindow(times, 200)).toBeLessThanOrEqual(10);
    // 50 starts at 10 per 200 ms need at least 4 full windows after the first burst.
    expect(elapsed).toBeGreaterThanOrEqual(800);
    // ...and the limiter should not be much slower than the limit (5 windows + latency; generous for a loaded machine).
    expect(elapsed).toBeLessThan(4000);
    expect(http.stats().requests).toBe(50);
  });

  it('caps requests in flight per host at the policy concurrency', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const server = await serve((_req, res) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        res.end('x');
      }, 30);
    });
    const http = client({ defaultPolicy: { maxPerInterval: 100, intervalMs: 1000, concurrency: 3 } });
    await Promise.all(Array.from({ length: 12 }, (_, i) => http.get(`${server.origin}/cc/${i}`)));
    expect(server.seen).toHaveLength(12);
    expect(maxInFlight).toBe(3);
  });

  it('shares one window between clients using the same clock and host', async () => {
    const server = await serve((_req, res) => res.end('x'));
    const clock = { ...systemClock };
    const policy = { maxPerInterval: 5, intervalMs: 200, concurrency: 5 };
    const a = createHttpClient({ clock, defaultPolicy: policy });
    const b = createHttpClient({ clock, defaultPolicy: policy });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).get(`${server.origin}/s/${i}`)),
    );
    await Promise.all([a.close(), b.close()]);
    expect(
      maxInAnyWindow(
        server.seen.map((s) => s.at),
        200,
      ),
    ).toBeLessThanOrEqual(5);
  });
});

describe('createHttpClient: retries and faults', () => {
  it('retries 500s with backoff and returns the data', async () => {
    const server = await serve((_req, res, i) => {
      res.statusCode = i < 2 ? 500 : 200;
      res.end(i < 2 ? 'boom' : '{"v":42}');
    });
    const http = client();
    const out = await http.getJson<{ v: number }>(`${server.origin}/a?api_key=${KEY}`);
    expect(out.json.v).toBe(42);
    expect(out.url).toBe(`${server.origin}/a`);
    expect(http.stats()).toMatchObject({ requests: 3, retries: 2, cacheHits: 0 });
    expect(lines.filter((l) => l.includes('retry'))).toHaveLength(2);
    expect(lines.join('\n')).toContain('HTTP 500');
  });

  it('gives up after the bounded attempts with an HttpError naming the stripped URL, attempts and status', async () => {
    const server = await serve((_req, res) => {
      res.statusCode = 503;
      res.end('down');
    });
    const http = client({ retries: 3 });
    const error = await caught(http.get(`${server.origin}/b?series_id=GDP&api_key=${KEY}`));
    expect(error).toBeInstanceOf(HttpError);
    const e = error as HttpError;
    expect(e.code).toBe('HTTP_FAILED');
    expect(e.attempts).toBe(4);
    expect(e.status).toBe(503);
    expect(e.url).toBe(`${server.origin}/b?series_id=GDP`);
    expect(e.message).toContain(`${server.origin}/b?series_id=GDP`);
    expect(e.message).toContain('4 attempts');
    expect(e.message).toContain('HTTP 503');
    expect(e.message).not.toContain(KEY);
    expect(server.seen).toHaveLength(4);
  });

  it('uses full-jitter exponential backoff bounded by the cap', async () => {
    const server = await serve((_req, res) => {
      res.statusCode = 500;
      res.end();
    });
    const clock = createFakeClock();
    const http = client({ clock, retries: 5, backoffBaseMs: 100, backoffMaxMs: 1000, random: () => 0.999 });
    await caught(http.get(`${server.origin}/j`));
    // random()*min(cap, base*2^(k-1)) with random≈1: 99, 199, 399, 799, 999
    expect(clock.slept).toEqual([99, 199, 399, 799, 999]);
  });

  it('retries a connection reset', async () => {
    const server = await serve((req, res, i) => {
      if (i === 0) req.socket.destroy();
      else res.end('after reset');
    });
    const http = client();
    const out = await http.get(`${server.origin}/reset`);
    expect(out.text).toBe('after reset');
    expect(http.stats().retries).toBe(1);
  });

  it('retries a connection reset in the middle of the body', async () => {
    const server = await serve((_req, res, i) => {
      if (i === 0) {
        res.writeHead(200, { 'content-length': '1000' });
        res.write('{"partial":');
        setTimeout(() => res.socket?.destroy(), 10);
      } else res.end('{"whole":true}');
    });
    const http = client();
    const out = await http.getJson<{ whole: boolean }>(`${server.origin}/mid`);
    expect(out.json.whole).toBe(true);
    expect(server.seen).toHaveLength(2);
  });

  it('retries a response slower than the timeout', async () => {
    const server = await serve((_req, res, i) => {
      setTimeout(() => res.end('slow ok'), i === 0 ? 1500 : 0);
    });
    const http = client({ timeoutMs: 150 });
    const out = await http.get(`${server.origin}/slow`);
    expect(out.text).toBe('slow ok');
    expect(server.seen).toHaveLength(2);
    expect(lines.join('\n')).toContain('timed out after 150 ms');
  });

  it('fails clearly when every attempt times out', async () => {
    const server = await serve((_req, res) => {
      setTimeout(() => res.end('too late'), 1500);
    });
    const http = client({ timeoutMs: 100, retries: 1 });
    const e = (await caught(http.get(`${server.origin}/slow2?api_key=${KEY}`))) as HttpError;
    expect(e).toBeInstanceOf(HttpError);
    expect(e.message).toContain(`${server.origin}/slow2`);
    expect(e.message).toContain('timed out after 100 ms');
    expect(e.message).not.toContain(KEY);
    expect(e.attempts).toBe(2);
  });

  it('sends Accept-Encoding gzip and decodes a gzip body', async () => {
    const payload = JSON.stringify({ facts: Array.from({ length: 200 }, (_, i) => i) });
    const server = await serve((_req, res) => {
      res.setHeader('content-encoding', 'gzip');
      res.setHeader('content-type', 'application/json');
      res.end(gzipSync(payload));
    });
    const http = client();
    const out = await http.getJson<{ facts: number[] }>(`${server.origin}/gz`);
    expect(server.seen[0].headers['accept-encoding']).toBe('gzip, deflate');
    expect(server.seen[0].headers['user-agent']).toBe(UA);
    expect(out.json.facts).toHaveLength(200);
    expect(out.bytes).toBe(Buffer.byteLength(payload));
    expect(out.contentType).toBe('application/json');
  });

  it('retries a truncated gzip body, then succeeds', async () => {
    const gz = gzipSync(JSON.stringify({ big: 'x'.repeat(5000), n: 1 }));
    const server = await serve((_req, res, i) => {
      res.setHeader('content-encoding', 'gzip');
      res.end(i === 0 ? gz.subarray(0, Math.floor(gz.length / 2)) : gz);
    });
    const http = client();
    const out = await http.getJson<{ n: number }>(`${server.origin}/tgz`);
    expect(out.json.n).toBe(1);
    expect(server.seen).toHaveLength(2);
    expect(lines.join('\n')).toMatch(/corrupt or truncated body/);
  });

  it('fails with HTTP_BAD_BODY naming the URL when gzip stays truncated', async () => {
    const gz = gzipSync('y'.repeat(4000));
    const server = await serve((_req, res) => {
      res.setHeader('content-encoding', 'gzip');
      res.end(gz.subarray(0, 20));
    });
    const http = client({ retries: 2 });
    const e = (await caught(http.get(`${server.origin}/bad-gz`))) as HttpError;
    expect(e.code).toBe('HTTP_BAD_BODY');
    expect(e.message).toContain(`${server.origin}/bad-gz`);
    expect(e.attempts).toBe(3);
    // Nothing corrupt was cached.
    await expect(readdir(join(dir, 'cache'))).rejects.toThrow();
  });

  it('retries malformed JSON in getJson, and never caches it', async () => {
    const server = await serve((_req, res, i) => res.end(i === 0 ? '{"a": [1, 2' : '{"a":[1,2]}'));
    const http = client();
    const out = await http.getJson<{ a: number[] }>(`${server.origin}/mj`);
    expect(out.json.a).toEqual([1, 2]);
    expect(server.seen).toHaveLength(2);
    const again = await client().getJson<{ a: number[] }>(`${server.origin}/mj`);
    expect(again.fromCache).toBe(true);
    expect(again.json.a).toEqual([1, 2]);
  });

  it('fails naming the URL when the JSON stays malformed', async () => {
    const server = await serve((_req, res) => res.end('<html>not json</html>'));
    const http = client({ retries: 1 });
    const e = (await caught(http.getJson(`${server.origin}/nj?api_key=${KEY}`))) as HttpError;
    expect(e.code).toBe('HTTP_BAD_BODY');
    expect(e.message).toContain(`GET ${server.origin}/nj failed after 2 attempts`);
    expect(e.message).toContain('malformed body');
  });

  it('does not retry a 404 and reports HTTP_NOT_FOUND', async () => {
    const server = await serve((_req, res) => {
      res.statusCode = 404;
      res.end('no such CIK');
    });
    const http = client();
    const e = (await caught(http.get(`${server.origin}/CIK0000000000.json`))) as HttpError;
    expect(e.code).toBe('HTTP_NOT_FOUND');
    expect(e.status).toBe(404);
    expect(server.seen).toHaveLength(1);
  });
});

describe('createHttpClient: rate-limit pauses', () => {
  it('pauses the whole host for rateLimitPauseMs on a page the classifier calls rate-limited, then resumes', async () => {
    const server = await serve((_req, res, i) => {
      if (i === 0) {
        res.statusCode = 403;
        res.end(THROTTLE_PAGE);
      } else res.end(`{"i":${i}}`);
    });
    const clock = createFakeClock(0);
    const http = client({ clock, classifyResponse: classifyThrottlePage });
    const first = http.getJson(`${server.origin}/p/1`);
    const out = await first;
    expect(out.json).toEqual({ i: 1 });
    expect(clock.now()).toBeGreaterThanOrEqual(600_000);
    expect(lines.join('\n')).toMatch(
      /rate limited by 127\.0\.0\.1 .*pausing all requests to 127\.0\.0\.1 for 600 s/,
    );
    // Another request to the same host, same clock, still passes (pause over).
    await http.get(`${server.origin}/p/2`);
    expect(server.seen).toHaveLength(3);
  });

  it('honours a Retry-After longer than the pause on 429', async () => {
    const server = await serve((_req, res, i) => {
      if (i === 0) {
        res.statusCode = 429;
        res.setHeader('retry-after', '1200');
        res.end('slow down');
      } else res.end('ok');
    });
    const clock = createFakeClock(0);
    const http = client({ clock });
    await http.get(`${server.origin}/r`);
    expect(clock.now()).toBeGreaterThanOrEqual(1_200_000);
  });

  it('with noWait stops at once with a clear message and keeps the host stopped', async () => {
    const server = await serve((_req, res) => {
      res.statusCode = 403;
      res.end(THROTTLE_PAGE);
    });
    const http = client({ noWait: true, classifyResponse: classifyThrottlePage });
    const e = (await caught(http.get(`${server.origin}/nw?api_key=${KEY}`))) as HttpError;
    expect(e).toBeInstanceOf(HttpError);
    expect(e.code).toBe('HTTP_RATE_LIMITED');
    expect(e.status).toBe(403);
    expect(e.attempts).toBe(1);
    expect(e.message).toContain('rate limited by 127.0.0.1');
    expect(e.message).toContain('wait 10 minutes and re-run; the cache keeps what was fetched');
    expect(e.message).toContain(`${server.origin}/nw`);
    expect(e.message).not.toContain(KEY);
    const e2 = (await caught(http.get(`${server.origin}/nw2`))) as HttpError;
    expect(e2.code).toBe('HTTP_RATE_LIMITED');
    expect(server.seen).toHaveLength(1);
  });

  it('ends with HTTP_RATE_LIMITED when the host stays limited through every attempt', async () => {
    const server = await serve((_req, res) => {
      res.statusCode = 429;
      res.end();
    });
    const clock = createFakeClock(0);
    const http = client({ clock, retries: 2 });
    const e = (await caught(http.get(`${server.origin}/always429`))) as HttpError;
    expect(e.code).toBe('HTTP_RATE_LIMITED');
    expect(e.attempts).toBe(3);
    expect(e.status).toBe(429);
    expect(server.seen).toHaveLength(3);
    // Two pauses were waited out between the three attempts.
    expect(clock.now()).toBeGreaterThanOrEqual(1_200_000);
  });

  it('a 403 the classifier leaves alone is a failure, not a pause', async () => {
    const server = await serve((_req, res) => {
      res.statusCode = 403;
      res.end('Forbidden');
    });
    const clock = createFakeClock(0);
    const http = client({ clock, classifyResponse: classifyThrottlePage });
    const e = (await caught(http.get(`${server.origin}/f`))) as HttpError;
    expect(e.code).toBe('HTTP_FAILED');
    expect(e.status).toBe(403);
    expect(clock.now()).toBe(0);
  });

  it("without a classifier a host's rate-limit page is a plain 403: no host knowledge in the client", async () => {
    const server = await serve((_req, res) => {
      res.statusCode = 403;
      res.end(THROTTLE_PAGE);
    });
    const clock = createFakeClock(0);
    const e = (await caught(client({ clock }).get(`${server.origin}/plain`))) as HttpError;
    expect(e.code).toBe('HTTP_FAILED');
    expect(e.message).toContain('HTTP 403 (expected 2xx): <html><title>Example API | Slow Down');
    expect(clock.now()).toBe(0);
    expect(server.seen).toHaveLength(1);
  });
});

describe('createHttpClient: classifyResponse', () => {
  it('sees the stripped URL, status and decoded text of every response outside 2xx, and no 2xx', async () => {
    const server = await serve((_req, res, i) => {
      res.statusCode = i === 0 ? 503 : 200;
      if (i === 0) res.setHeader('content-encoding', 'gzip');
      res.end(i === 0 ? gzipSync('busy') : 'fine');
    });
    const seen: { url: string; status: number; text: string }[] = [];
    const http = client({
      classifyResponse: (response) => {
        seen.push(response);
        return undefined;
      },
    });
    const out = await http.get(`${server.origin}/cls?api_key=${KEY}`);
    expect(out.text).toBe('fine');
    // Left to the generic rules, the 503 was retried.
    expect(seen).toEqual([{ url: `${server.origin}/cls`, status: 503, text: 'busy' }]);
  });

  it("'failed' ends the request at once with HTTP_FAILED, the reason in the message, never retried", async () => {
    const server = await serve((_req, res) => {
      res.statusCode = 403;
      res.end(`<p>Register your client first</p> key=${KEY}`);
    });
    const http = client({
      classifyResponse: (response) =>
        response.text.includes('Register your client')
          ? { kind: 'failed', reason: `HTTP 403 "Register": register and re-run (${response.text})` }
          : undefined,
    });
    const e = (await caught(http.get(`${server.origin}/reg?api_key=${KEY}`))) as HttpError;
    expect(e).toBeInstanceOf(HttpError);
    expect(e.code).toBe('HTTP_FAILED');
    expect(e.status).toBe(403);
    expect(e.attempts).toBe(1);
    expect(e.message).toContain(`GET ${server.origin}/reg failed: HTTP 403 "Register": register and re-run`);
    expect(e.message).not.toContain(KEY);
    expect(server.seen).toHaveLength(1);
  });

  it('speaks before the generic rules: a 500 it calls rate-limited pauses instead of backing off', async () => {
    const server = await serve((_req, res, i) => {
      res.statusCode = i === 0 ? 500 : 200;
      res.end(i === 0 ? 'maintenance window' : 'back');
    });
    const clock = createFakeClock(0);
    const http = client({
      clock,
      classifyResponse: (response) =>
        response.text === 'maintenance window' ? { kind: 'rate-limited', reason: 'maintenance' } : undefined,
    });
    const out = await http.get(`${server.origin}/mw`);
    expect(out.text).toBe('back');
    expect(clock.now()).toBeGreaterThanOrEqual(600_000);
    expect(lines.join('\n')).toContain('rate limited by 127.0.0.1 (maintenance)');
  });
});

describe('createHttpClient: cache, offline, secrets', () => {
  it('serves a re-run from the cache, resumes after a failure, and reports offline misses', async () => {
    let failC = true;
    const server = await serve((req, res) => {
      if (req.url?.startsWith('/c') && failC) {
        res.statusCode = 500;
        res.end();
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ path: req.url?.split('?')[0] }));
    });
    const urls = ['/a', '/b', '/c'].map((p) => `${server.origin}${p}?series_id=X&api_key=${KEY}`);
    const run1 = client({ retries: 1 });
    const results = await Promise.allSettled(urls.map((u) => run1.getJson(u)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    const hitsBefore = server.seen.length;

    failC = false;
    const run2 = client();
    const again = await Promise.all(urls.map((u) => run2.getJson<{ path: string }>(u)));
    expect(again.map((r) => r.fromCache)).toEqual([true, true, false]);
    expect(again.map((r) => r.json.path)).toEqual(['/a', '/b', '/c']);
    expect(server.seen.length).toBe(hitsBefore + 1);
    expect(run2.stats().cacheHits).toBe(2);
    // The same body hashes the same way from the network and from the cache.
    const fresh = results[0].status === 'fulfilled' ? results[0].value : undefined;
    expect(again[0].sha256).toBe(fresh?.sha256);

    const offline = client({ offline: true });
    const all = await Promise.all(urls.map((u) => offline.get(u)));
    expect(all.every((r) => r.fromCache)).toBe(true);
    const miss = await caught(offline.get(`${server.origin}/missing?api_key=${KEY}`));
    expect(miss).toBeInstanceOf(OfflineCacheMissError);
    expect((miss as OfflineCacheMissError).url).toBe(`${server.origin}/missing`);
    expect((miss as Error).message).toContain(`${server.origin}/missing`);
    expect((miss as Error).message).not.toContain(KEY);
    expect(server.seen.length).toBe(hitsBefore + 1);
  });

  it('keys the cache by cacheKey when given, and stores content-addressed objects with an index', async () => {
    const server = await serve((_req, res) => res.end('same body'));
    const http = client();
    const r1 = await http.get(`${server.origin}/x?t=1`, { cacheKey: 'companyfacts/0000320193' });
    const r2 = await client().get(`${server.origin}/x?t=2`, { cacheKey: 'companyfacts/0000320193' });
    expect(r2.fromCache).toBe(true);
    const objects = await readFile(join(dir, 'cache', 'objects', r1.sha256.slice(0, 2), r1.sha256), 'utf8');
    expect(objects).toBe('same body');
    const index = (await readdir(join(dir, 'cache', 'index'), { recursive: true })).filter((f) =>
      f.endsWith('.json'),
    );
    expect(index).toHaveLength(1);
  });

  it('never writes secret values to the cache dir, log lines or error messages', async () => {
    const server = await serve((req, res, i) => {
      // Every request gets one retry, and the body echoes the secrets back (as a careless server might).
      if (i % 2 === 0) {
        res.statusCode = 500;
        res.end(`error for ${req.url} ua=${req.headers['user-agent']}`);
        return;
      }
      res.end(JSON.stringify({ url: req.url, ua: req.headers['user-agent'] }));
    });
    const http = client();
    const r = await http.getJson<{ url: string; ua: string }>(`${server.origin}/s?api_key=${KEY}&q=1`);
    // The server did receive them.
    expect(server.seen[0].url).toContain(KEY);
    expect(server.seen[0].headers['user-agent']).toBe(UA);
    expect(r.text).not.toContain(KEY);
    expect(r.text).not.toContain(UA);
    const err = await caught(
      client({ noWait: true, retries: 0 }).get(`${server.origin}/s2?api_key=${KEY}`, {
        headers: { authorization: 'Bearer tok-secret-xyz' },
      }),
    );
    const everything = [await readAllFiles(join(dir, 'cache')), lines.join('\n'), String(err)].join('\n');
    expect(everything).toContain('api_key=***'); // the retry log line names the redacted URL
    for (const secret of [KEY, UA, encodeURIComponent(UA), 'tok-secret-xyz']) {
      expect(everything).not.toContain(secret);
    }
  });

  it('works with an undici MockAgent and no network', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const pool = agent.get('https://api.example.com');
    pool.intercept({ path: '/v1/items/320193.json', method: 'GET' }).reply(500, 'oops');
    pool
      .intercept({ path: '/v1/items/320193.json', method: 'GET' })
      .reply(200, { id: 320193 }, { headers: { 'content-type': 'application/json' } });
    const http = client({
      dispatcher: agent,
      hosts: { 'api.example.com': { maxPerInterval: 10, intervalMs: 1000 } },
    });
    const out = await http.getJson<{ id: number }>('https://api.example.com/v1/items/320193.json');
    expect(out.json.id).toBe(320193);
    expect(http.stats().byHost).toEqual({ 'api.example.com': 2 });
    agent.assertNoPendingInterceptors();
    await agent.close();
  });

  it('rejects a relative URL with HTTP_INVALID_URL', async () => {
    const e = (await caught(client().get('/relative?api_key=zzz'))) as HttpError;
    expect(e.code).toBe('HTTP_INVALID_URL');
    expect(e.message).not.toContain('zzz');
  });
});

const realSec = fileURLToPath(new URL('../../../../shared/fixtures/real/sec/', import.meta.url));
describe.skipIf(!existsSync(realSec))(
  'createHttpClient: a real companyfacts response (needs ../shared/fixtures/real)',
  () => {
    it('serves a recorded 1.2 MB companyfacts body gzip-encoded, byte-identical, and caches it by its sha256', async () => {
      const raw = await readFile(join(realSec, 'companyfacts_CIK0001835632_MRVL_full.json'));
      const server = await serve((_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.setHeader('content-encoding', 'gzip');
        res.end(gzipSync(raw));
      });
      const http = client();
      const out = await http.getJson<{ cik: number; entityName: string }>(
        `${server.origin}/api/xbrl/companyfacts/CIK0001835632.json`,
      );
      expect(out.sha256).toBe(sha256Hex(raw));
      expect(out.bytes).toBe(raw.byteLength);
      expect(out.json.cik).toBe(1835632);
      const stored = await readFile(join(dir, 'cache', 'objects', out.sha256.slice(0, 2), out.sha256));
      expect(stored.equals(raw)).toBe(true);
    });
  },
);
