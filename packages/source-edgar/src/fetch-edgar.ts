import { createHttpClient, type HttpClient, HttpError } from '@asof/http';
import { type AtomicSink, InputError, type RawInput } from '@asof/schema';
import type { Dispatcher } from 'undici';
import { classifySecResponse } from './classify-sec-response.ts';
import { parseCompanyTickers } from './company-tickers-payload.ts';
import { padCik } from './companyfacts-payload.ts';
import {
  type EdgarIngestSummary,
  type EdgarRawCompany,
  type IngestEdgarOptions,
  ingestEdgarPayloads,
} from './ingest-edgar-payloads.ts';
import { resolveTickers } from './ingest-edgar-raw-dir.ts';
import { parseSubmissionsPayload } from './submissions-payload.ts';

export const SEC_USER_AGENT_ENV = 'ASOF_SEC_USER_AGENT';

export interface FetchEdgarOptions {
  tickers: string[];
  /** Environment to read ASOF_SEC_USER_AGENT from. Default process.env. */
  env?: Record<string, string | undefined>;
  /**
   * A ready client (tests); otherwise one is created with SEC's fair-access limits and closed afterwards. A
   * ready client should pass `classifyResponse: classifySecResponse`, or SEC's 403 pages read as plain 403s.
   */
  client?: HttpClient;
  cacheDir?: string;
  offline?: boolean;
  noWait?: boolean;
  /** Retries of a failing request (default 4, as @asof/http). */
  retries?: number;
  dispatcher?: Dispatcher;
  log?: (line: string) => void;
  /** Origins, for a 127.0.0.1 test server. Defaults https://data.sec.gov and https://www.sec.gov. */
  dataOrigin?: string;
  wwwOrigin?: string;
}

export interface FetchedEdgar {
  companies: EdgarRawCompany[];
  inputs: RawInput[];
  /** Companies with no companyfacts (HTTP 404: no XBRL financial data). */
  missing: { cik: string; ticker: string; entity_name: string; reason: string }[];
}

/**
 * The SEC's fair-access policy requires a declared User-Agent with a contact. The value is a secret for
 * asof's purposes (it usually holds an e-mail address), so no message ever repeats it.
 */
export function requireSecUserAgent(env: Record<string, string | undefined> = process.env): string {
  const ua = env[SEC_USER_AGENT_ENV]?.trim();
  if (!ua) {
    throw new InputError(
      'EDGAR_USER_AGENT_MISSING',
      `${SEC_USER_AGENT_ENV} is not set. SEC EDGAR requires a User-Agent that names you and a contact address; ` +
        `set it, e.g. export ${SEC_USER_AGENT_ENV}="Jane Doe jane@example.com", and retry. ` +
        'Offline replays (asof ingest edgar --raw-dir DIR) do not need it.',
      { context: { env: SEC_USER_AGENT_ENV } },
    );
  }
  const invalid = (code: string, why: string) =>
    new InputError(
      code,
      `${SEC_USER_AGENT_ENV} is set but ${why}; SEC asks for "Name email@domain", e.g. export ${SEC_USER_AGENT_ENV}="Jane Doe jane@example.com" (the value is not shown)`,
      { context: { env: SEC_USER_AGENT_ENV } },
    );
  // An HTTP header carries printable ASCII only: undici would refuse the request (or a newline would
  // inject a header), so refuse it here, before any request.
  if (/[^\x20-\x7e]/.test(ua)) {
    throw invalid(
      'EDGAR_USER_AGENT_INVALID',
      'holds a control or non-ASCII character, which an HTTP header cannot carry',
    );
  }
  const tokens = ua.split(/\s+/);
  if (!tokens.some((t) => /^<?[^\s@<>]+@[^\s@<>]+\.[A-Za-z]{2,}>?$/.test(t))) {
    throw invalid(
      'EDGAR_USER_AGENT_NO_CONTACT',
      /@/.test(ua)
        ? 'its e-mail contact is not an address like jane@example.com'
        : 'contains no e-mail contact (no "@")',
    );
  }
  if (!tokens.some((t) => !t.includes('@') && /[A-Za-z]/.test(t))) {
    throw invalid('EDGAR_USER_AGENT_NO_NAME', 'names no person or organisation beside the e-mail address');
  }
  return ua;
}

/**
 * Live download: company_tickers.json → CIKs, then per company submissions (and every overflow page in
 * `filings.files`) and companyfacts, all through `@asof/http` (10 requests/s shared by both SEC hosts,
 * retries, rate-limit pauses, raw cache). Refuses to start without ASOF_SEC_USER_AGENT.
 */
export async function fetchEdgar(options: FetchEdgarOptions): Promise<FetchedEdgar> {
  const ua = requireSecUserAgent(options.env ?? process.env);
  const data = options.dataOrigin ?? 'https://data.sec.gov';
  const www = options.wwwOrigin ?? 'https://www.sec.gov';
  const sec = { maxPerInterval: 10, intervalMs: 1000, bucket: 'sec.gov' };
  const client =
    options.client ??
    createHttpClient({
      hosts: { 'data.sec.gov': sec, 'www.sec.gov': sec },
      headers: { 'user-agent': ua },
      secretValues: [ua],
      cacheDir: options.cacheDir,
      offline: options.offline,
      noWait: options.noWait,
      retries: options.retries,
      dispatcher: options.dispatcher,
      log: options.log,
      classifyResponse: classifySecResponse,
      unreachableHint:
        'rerun when online, serve earlier downloads from the cache with --offline (pipeline: "offline": true), ' +
        'or replay recorded SEC JSON files with --raw-dir DIR (no User-Agent needed)',
    });
  const inputs: RawInput[] = [];
  const get = async (url: string) => {
    const r = await client.getJson(url);
    inputs.push({ source: 'edgar', key: r.url, sha256: r.sha256, bytes: r.bytes });
    return r;
  };
  try {
    const tickersRes = await get(`${www}/files/company_tickers.json`);
    const wanted = resolveTickers(
      options.tickers,
      parseCompanyTickers(tickersRes.json, tickersRes.url),
      tickersRes.url,
    );
    const companies: EdgarRawCompany[] = [];
    const missing: FetchedEdgar['missing'] = [];
    const seen = new Set<string>();
    const results = await Promise.all(
      wanted
        .filter((e) => !seen.has(e.cik) && seen.add(e.cik))
        .map(async (entry) => {
          const cik = padCik(entry.cik);
          const [subs, facts] = await Promise.all([
            get(`${data}/submissions/CIK${cik}.json`).catch(notFoundAsNull),
            get(`${data}/api/xbrl/companyfacts/CIK${cik}.json`).catch(notFoundAsNull),
          ]);
          const pages: NonNullable<EdgarRawCompany['pages']> = [];
          if (subs) {
            const main = parseSubmissionsPayload(subs.json, subs.url);
            for (const f of main.filings.files) {
              const page = await get(`${data}/submissions/${f.name}`);
              pages.push({ where: page.url, json: page.json, name: f.name });
            }
          }
          return { entry, cik, subs, facts, pages };
        }),
    );
    for (const { entry, cik, subs, facts, pages } of results) {
      if (!facts) {
        missing.push({
          cik,
          ticker: entry.ticker,
          entity_name: entry.title,
          reason: 'no companyfacts (HTTP 404): the company has filed no XBRL financial data',
        });
        continue;
      }
      companies.push({
        companyfacts: { where: facts.url, json: facts.json },
        submissions: subs ? { where: subs.url, json: subs.json } : null,
        pages,
        ticker: entry.ticker,
      });
    }
    return { companies, inputs, missing };
  } finally {
    if (!options.client) await client.close();
  }
}

function notFoundAsNull(error: unknown): null {
  if (error instanceof HttpError && error.code === 'HTTP_NOT_FOUND') return null;
  throw error;
}

/** Live ingest: fetchEdgar, then the same parser as the raw-directory replay. */
export async function ingestEdgarLive(
  sink: AtomicSink,
  options: FetchEdgarOptions & IngestEdgarOptions,
): Promise<EdgarIngestSummary> {
  const fetched = await fetchEdgar(options);
  for (const input of fetched.inputs) sink.addInput(input);
  const summary = ingestEdgarPayloads(fetched.companies, sink, options);
  for (const m of fetched.missing) {
    sink.addWarning({
      code: 'EDGAR_COMPANY_SKIPPED',
      message: `EDGAR ${m.ticker} (CIK ${m.cik}, ${m.entity_name}) skipped: ${m.reason}`,
      count: 1,
    });
    summary.skipped.push({ cik: m.cik, entity_name: m.entity_name, reason: m.reason });
  }
  return summary;
}
