import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient } from './create-http-client.ts';
import type { HttpError } from './http-error.ts';
import { createFakeClock, startTestServer, type TestServer } from './start-test-server.ts';

const KEY = 'abcdef0123456789abcdef0123456789';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function caught(p: Promise<unknown>): Promise<HttpError> {
  try {
    await p;
  } catch (error) {
    return error as HttpError;
  }
  throw new Error('expected a rejection');
}

/** A MockAgent that answers every request to `origin` the way a machine without network does. */
function offlineAgent(origin: string, code: string, message: string): MockAgent {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agent
    .get(origin)
    .intercept({ path: () => true, method: 'GET' })
    .replyWithError(Object.assign(new Error(message), { code }))
    .persist();
  cleanups.push(() => agent.close());
  return agent;
}

describe('a host that cannot be reached', () => {
  it('fails with one line naming the host and the hint, exit 2, no secret', async () => {
    const agent = offlineAgent(
      'https://api.example.org',
      'ENOTFOUND',
      'getaddrinfo ENOTFOUND api.example.org',
    );
    const lines: string[] = [];
    const client = createHttpClient({
      dispatcher: agent,
      clock: createFakeClock(),
      retries: 2,
      secretParams: ['api_key'],
      secretValues: [KEY],
      headers: { 'user-agent': 'Jane Doe jane.secret@example.com' },
      unreachableHint: 'rebuild from the cache with --offline, or replay recorded files with --raw-dir DIR',
      log: (l) => lines.push(l),
    });
    const e = await caught(
      client.getJson(`https://api.example.org/fred/series?series_id=GDP&api_key=${KEY}`),
    );
    expect(e.code).toBe('HTTP_UNREACHABLE');
    expect(e.exitCode).toBe(1);
    expect(e.attempts).toBe(3);
    expect(e.message).toMatch(
      /^cannot reach api\.example\.org \(ENOTFOUND, 3 attempts for GET https:\/\/api\.example\.org\/fred\/series\?series_id=GDP\): no network connection/,
    );
    expect(e.message).toMatch(
      /; rebuild from the cache with --offline, or replay recorded files with --raw-dir DIR$/,
    );
    expect(e.message).not.toContain('\n');
    const everything = [e.message, JSON.stringify(e.context), String(e.cause), ...lines].join('\n');
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain('jane.secret@example.com');
  });

  it('treats a refused connection the same way, and other failures as before', async () => {
    const agent = offlineAgent(
      'https://data.example.org',
      'ECONNREFUSED',
      'connect ECONNREFUSED 10.0.0.1:443',
    );
    const client = createHttpClient({
      dispatcher: agent,
      clock: createFakeClock(),
      retries: 0,
      log: () => {},
    });
    const e = await caught(client.get('https://data.example.org/x'));
    expect([e.code, e.message]).toEqual([
      'HTTP_UNREACHABLE',
      'cannot reach data.example.org (ECONNREFUSED, 1 attempt for GET https://data.example.org/x): no network connection, or the host is down or blocked',
    ]);
    const reset = offlineAgent('https://reset.example.org', 'ECONNRESET', 'socket hang up');
    const other = createHttpClient({
      dispatcher: reset,
      clock: createFakeClock(),
      retries: 1,
      log: () => {},
    });
    const r = await caught(other.get('https://reset.example.org/x'));
    expect(r.code).toBe('HTTP_FAILED');
    expect(r.exitCode).toBe(1);
  });

  it('does not retry a request undici refuses to send (a header value with a newline)', async () => {
    const server: TestServer = await startTestServer((_req, res) => res.end('{}'));
    cleanups.push(() => server.close());
    const lines: string[] = [];
    const client = createHttpClient({
      clock: createFakeClock(),
      headers: { 'user-agent': 'Jane Doe\r\nX-Injected: jane@example.com' },
      log: (l) => lines.push(l),
    });
    cleanups.push(() => client.close());
    const e = await caught(client.get(`${server.origin}/x`));
    expect(e.code).toBe('HTTP_INVALID_REQUEST');
    expect(e.exitCode).toBe(2);
    expect(e.attempts).toBe(1);
    expect(server.seen).toEqual([]);
    expect(client.stats().retries).toBe(0);
    expect(lines.filter((l) => /retry/.test(l))).toEqual([]);
    expect(e.message).not.toContain('jane@example.com');
  });
});
