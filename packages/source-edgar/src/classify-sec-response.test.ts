import { createHttpClient, type HttpClientOptions, HttpError } from '@asof/http';
import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { classifySecResponse } from './classify-sec-response.ts';
import { fetchEdgar } from './fetch-edgar.ts';

const UA = 'Asof Test Runner sec-403-tests@example.org';
const THRESHOLD_PAGE =
  '<html><head><title>SEC.gov | Request Rate Threshold Exceeded</title></head><body>' +
  '<h1>Your Request Originates from an Undeclared Automated Tool</h1>' +
  '<p>Request Rate Threshold Exceeded</p></body></html>';
const UNDECLARED_PAGE =
  '<html><head><title>SEC.gov | Your Request Originates from an Undeclared Automated Tool</title></head>' +
  '<body><p>Please declare your traffic by updating your user agent to include company specific information.</p></body></html>';
const URL = 'https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json';

/** A virtual clock: the 10-minute pauses pass at once, and how long was waited can be read off. */
function virtualClock() {
  let t = 0;
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += Math.max(0, ms);
    },
  };
}

describe('classifySecResponse', () => {
  it('reads the threshold page as a pause, even when it also names the undeclared tool', () => {
    expect(classifySecResponse({ url: URL, status: 403, text: THRESHOLD_PAGE })).toEqual({
      kind: 'rate-limited',
      reason: 'HTTP 403 "Request Rate Threshold Exceeded"',
    });
  });

  it('reads the undeclared-tool page as a failure that names ASOF_SEC_USER_AGENT', () => {
    expect(classifySecResponse({ url: URL, status: 403, text: UNDECLARED_PAGE })).toEqual({
      kind: 'failed',
      reason:
        'HTTP 403 "Undeclared Automated Tool": the server wants a declared User-Agent; set ASOF_SEC_USER_AGENT ' +
        'to "Your Name your.email@example.com" and re-run',
    });
  });

  it('leaves every other response to the generic rules', () => {
    expect(classifySecResponse({ url: URL, status: 403, text: 'Forbidden' })).toBeUndefined();
    expect(classifySecResponse({ url: URL, status: 429, text: THRESHOLD_PAGE })).toBeUndefined();
    expect(classifySecResponse({ url: URL, status: 500, text: UNDECLARED_PAGE })).toBeUndefined();
  });
});

describe('SEC 403 pages through @asof/http', () => {
  let agent: MockAgent;
  beforeEach(() => {
    agent = new MockAgent();
    agent.disableNetConnect();
  });
  afterEach(() => agent.close());

  function client(extra: HttpClientOptions = {}) {
    return createHttpClient({
      dispatcher: agent,
      hosts: { 'data.sec.gov': { maxPerInterval: 10, intervalMs: 1000, rateLimitPauseMs: 600_000 } },
      headers: { 'user-agent': UA },
      classifyResponse: classifySecResponse,
      log: () => {},
      ...extra,
    });
  }

  it('pauses the host for rateLimitPauseMs on the threshold page, then resumes', async () => {
    const pool = agent.get('https://data.sec.gov');
    pool.intercept({ path: '/p/1', method: 'GET' }).reply(403, THRESHOLD_PAGE);
    pool.intercept({ path: '/p/1', method: 'GET' }).reply(200, '{"ok":true}');
    const clock = virtualClock();
    const out = await client({ clock }).getJson<{ ok: boolean }>('https://data.sec.gov/p/1');
    expect(out.json.ok).toBe(true);
    expect(clock.now()).toBeGreaterThanOrEqual(600_000);
    agent.assertNoPendingInterceptors();
  });

  it('with noWait stops at once with HTTP_RATE_LIMITED naming the host', async () => {
    agent.get('https://data.sec.gov').intercept({ path: '/nw', method: 'GET' }).reply(403, THRESHOLD_PAGE);
    const e = await client({ clock: virtualClock(), noWait: true })
      .get('https://data.sec.gov/nw')
      .catch((error: unknown) => error);
    expect(e).toBeInstanceOf(HttpError);
    expect(e).toMatchObject({ code: 'HTTP_RATE_LIMITED', status: 403, attempts: 1 });
    expect((e as Error).message).toBe(
      'GET https://data.sec.gov/nw: rate limited by data.sec.gov (HTTP 403 "Request Rate Threshold Exceeded"); ' +
        'wait 10 minutes and re-run; the cache keeps what was fetched',
    );
  });
});

describe('fetchEdgar and the undeclared-tool page', () => {
  it('fails at once with HTTP_FAILED telling the user to set ASOF_SEC_USER_AGENT, never echoing it', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('https://www.sec.gov')
      .intercept({ path: '/files/company_tickers.json', method: 'GET' })
      .reply(403, UNDECLARED_PAGE);
    const e = await fetchEdgar({
      tickers: ['AAPL'],
      env: { ASOF_SEC_USER_AGENT: UA },
      dispatcher: agent,
    }).catch((error: unknown) => error);
    await agent.close();
    expect(e).toBeInstanceOf(HttpError);
    expect(e).toMatchObject({ code: 'HTTP_FAILED', status: 403, attempts: 1 });
    expect((e as Error).message).toBe(
      'GET https://www.sec.gov/files/company_tickers.json failed: HTTP 403 "Undeclared Automated Tool": the ' +
        'server wants a declared User-Agent; set ASOF_SEC_USER_AGENT to "Your Name your.email@example.com" and re-run',
    );
    expect((e as Error).message).not.toContain(UA);
    agent.assertNoPendingInterceptors();
  });
});
