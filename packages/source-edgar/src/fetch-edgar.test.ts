import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CollectingSink } from '@asof/schema';
import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fetchEdgar, ingestEdgarLive, requireSecUserAgent } from './fetch-edgar.ts';
import { generateSyntheticEdgar } from './generate-synthetic-edgar.ts';
import { ingestEdgarRawFiles } from './ingest-edgar-raw-dir.ts';

const UA = 'Asof Test Runner secret-contact-7f3a@example.org';
const files = generateSyntheticEdgar({ seed: 7, companies: 2, fiscalYears: 4 });
const byName = new Map(files.map((f) => [f.name, f.json]));
const json = { headers: { 'content-type': 'application/json' } };

function allText(dir: string): string {
  let out = '';
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    out += `${name}\n`;
    out += statSync(p).isDirectory() ? allText(p) : readFileSync(p, 'latin1');
  }
  return out;
}

describe('fetchEdgar (live path, undici MockAgent, no network)', () => {
  let agent: MockAgent;
  let cacheDir: string;
  const seenUa: (string | undefined)[] = [];
  const paths: string[] = [];

  beforeEach(() => {
    agent = new MockAgent();
    agent.disableNetConnect();
    cacheDir = mkdtempSync(join(tmpdir(), 'asof-edgar-cache-'));
    seenUa.length = 0;
    paths.length = 0;
  });
  afterEach(async () => {
    await agent.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  const serve = (origin: string, path: string, status: number, body: unknown) =>
    agent
      .get(origin)
      .intercept({ path, method: 'GET' })
      .reply((opts) => {
        const h = opts.headers as Record<string, string | undefined>;
        seenUa.push(h['user-agent'] ?? h['User-Agent']);
        paths.push(path);
        return {
          statusCode: status,
          data: typeof body === 'string' ? body : JSON.stringify(body),
          responseOptions: json,
        };
      })
      .persist();

  function serveSynthetic() {
    serve('https://www.sec.gov', '/files/company_tickers.json', 200, byName.get('company_tickers.json'));
    for (const f of files) {
      const cik = /CIK(\d{10})/.exec(f.name)?.[1];
      if (f.name.startsWith('companyfacts_'))
        serve('https://data.sec.gov', `/api/xbrl/companyfacts/CIK${cik}.json`, 200, f.json);
      else if (/-submissions-001/.test(f.name))
        serve('https://data.sec.gov', `/submissions/CIK${cik}-submissions-001.json`, 200, f.json);
      else if (f.name.startsWith('submissions_'))
        serve('https://data.sec.gov', `/submissions/CIK${cik}.json`, 200, f.json);
    }
  }

  it('refuses to start without ASOF_SEC_USER_AGENT, before any request', async () => {
    serveSynthetic();
    await expect(fetchEdgar({ tickers: ['SYNA'], env: {}, dispatcher: agent })).rejects.toMatchObject({
      code: 'EDGAR_USER_AGENT_MISSING',
      message: expect.stringContaining('ASOF_SEC_USER_AGENT is not set'),
    });
    expect(paths).toEqual([]);
  });

  it('refuses a User-Agent without a contact and does not echo it', () => {
    const ua = 'just-a-tool-name-1234';
    let message = '';
    try {
      requireSecUserAgent({ ASOF_SEC_USER_AGENT: ua });
    } catch (e) {
      message = `${(e as Error).message} ${JSON.stringify((e as { context?: unknown }).context)}`;
    }
    expect(message).toMatch(/no e-mail contact/);
    expect(message).not.toContain(ua);
  });

  it('fetches tickers, submissions, every overflow page and companyfacts, and parses them like a raw dir', async () => {
    serveSynthetic();
    const logs: string[] = [];
    const sink = new CollectingSink();
    const summary = await ingestEdgarLive(sink, {
      tickers: ['syna', 'SYNB'],
      env: { ASOF_SEC_USER_AGENT: UA },
      dispatcher: agent,
      cacheDir,
      log: (l) => logs.push(l),
    });
    expect(paths.filter((p) => p.includes('-submissions-001'))).toHaveLength(2);
    expect(new Set(paths).size).toBe(7);
    expect(seenUa.every((v) => v === UA)).toBe(true);
    expect(summary.ingested).toBe(2);
    expect(sink.warnings).toEqual([]);
    expect(sink.inputs.map((i) => i.key).sort()).toEqual([
      'https://data.sec.gov/api/xbrl/companyfacts/CIK9990000001.json',
      'https://data.sec.gov/api/xbrl/companyfacts/CIK9990000002.json',
      'https://data.sec.gov/submissions/CIK9990000001-submissions-001.json',
      'https://data.sec.gov/submissions/CIK9990000001.json',
      'https://data.sec.gov/submissions/CIK9990000002-submissions-001.json',
      'https://data.sec.gov/submissions/CIK9990000002.json',
      'https://www.sec.gov/files/company_tickers.json',
    ]);

    // Same parser as the offline replay: identical rows from the same bytes.
    const offline = new CollectingSink();
    ingestEdgarRawFiles(
      files.map((f) => ({ name: f.name, json: f.json, sha256: '0'.repeat(64), bytes: 1 })),
      offline,
      {},
    );
    expect(sink.observations).toEqual(offline.observations);
    expect(sink.series).toEqual(offline.series);

    // The User-Agent travels only as the header: not in outputs, summary, logs or the cache.
    const outputs = JSON.stringify({ sink, summary, logs });
    expect(outputs).not.toContain(UA);
    expect(outputs).not.toContain('secret-contact-7f3a');
    const cache = allText(cacheDir);
    expect(cache.length).toBeGreaterThan(1000);
    expect(cache).not.toContain('secret-contact-7f3a');

    // A second run offline is served from the cache alone.
    const again = new CollectingSink();
    await ingestEdgarLive(again, {
      tickers: ['SYNA', 'SYNB'],
      env: { ASOF_SEC_USER_AGENT: UA },
      dispatcher: agent,
      cacheDir,
      offline: true,
    });
    expect(again.observations).toEqual(sink.observations);
  });

  it('skips a company without companyfacts (404) with a reason', async () => {
    serve('https://www.sec.gov', '/files/company_tickers.json', 200, byName.get('company_tickers.json'));
    serve('https://data.sec.gov', '/submissions/CIK9990000001.json', 404, 'Not Found');
    serve('https://data.sec.gov', '/api/xbrl/companyfacts/CIK9990000001.json', 404, 'Not Found');
    const sink = new CollectingSink();
    const summary = await ingestEdgarLive(sink, {
      tickers: ['SYNA'],
      env: { ASOF_SEC_USER_AGENT: UA },
      dispatcher: agent,
    });
    expect(summary.skipped).toEqual([
      {
        cik: '9990000001',
        entity_name: 'Synthetic Company A Inc.',
        reason: expect.stringMatching(/no companyfacts \(HTTP 404\)/),
      },
    ]);
    expect(sink.observations).toEqual([]);
    // The warning names the ticker the user asked for, the CIK and the 404 (audit 5.6).
    expect(sink.warnings.map((w) => [w.code, w.message])).toEqual([
      [
        'EDGAR_COMPANY_SKIPPED',
        expect.stringMatching(
          /^EDGAR SYNA \(CIK 9990000001, Synthetic Company A Inc\.\) skipped: no companyfacts \(HTTP 404\)/,
        ),
      ],
    ]);
  });

  it('never puts the User-Agent into error messages, even when the server echoes it', async () => {
    serve('https://www.sec.gov', '/files/company_tickers.json', 200, byName.get('company_tickers.json'));
    serve('https://data.sec.gov', '/submissions/CIK9990000001.json', 400, `Bad request from "${UA}"`);
    serve(
      'https://data.sec.gov',
      '/api/xbrl/companyfacts/CIK9990000001.json',
      400,
      `Bad request from "${UA}"`,
    );
    const logs: string[] = [];
    let caught: unknown;
    try {
      await fetchEdgar({
        tickers: ['SYNA'],
        env: { ASOF_SEC_USER_AGENT: UA },
        dispatcher: agent,
        cacheDir,
        log: (l) => logs.push(l),
      });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(Error);
    const e = caught as Error & { context?: unknown; cause?: unknown };
    const text = `${e.message} ${e.stack} ${JSON.stringify(e.context)} ${String(e.cause)} ${logs.join('\n')} ${allText(cacheDir)}`;
    expect(e.message).toMatch(/400/);
    expect(text).not.toContain('secret-contact-7f3a');
  });

  it('names unknown tickers', async () => {
    serve('https://www.sec.gov', '/files/company_tickers.json', 200, byName.get('company_tickers.json'));
    await expect(
      fetchEdgar({ tickers: ['SYNA', 'NOPE'], env: { ASOF_SEC_USER_AGENT: UA }, dispatcher: agent }),
    ).rejects.toMatchObject({ code: 'EDGAR_UNKNOWN_TICKER', message: expect.stringContaining('NOPE') });
  });
});
