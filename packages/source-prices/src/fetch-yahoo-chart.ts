import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { localDateOfMicros, microsToIso } from '@asof/calendar';
import type { HttpClient } from '@asof/http';
import { AsofError, type Micros, oneLineMessage } from '@asof/schema';
import { parseYahooChart } from './parse-yahoo-chart.ts';
import type { PriceDownloadMeta } from './price-download-meta.ts';
import type { ParsedPriceFile } from './price-types.ts';

export const YAHOO_CHART_BASE_URL = 'https://query2.finance.yahoo.com';

export interface FetchYahooChartOptions {
  /** An `@asof/http` client (rate limits, retries, raw cache). Only `get` is used. */
  client: Pick<HttpClient, 'get'>;
  /** Range start, epoch seconds (default 0: the whole history, so every split is in `events`). */
  period1?: number;
  /** Range end, epoch seconds (default now). */
  period2?: number;
  baseUrl?: string;
  /** Clock for the download instant (epoch ms), injectable for tests. */
  now?: () => number;
}

export interface FetchedYahooChart {
  symbol: string;
  url: string;
  text: string;
  sha256: string;
  bytes: number;
  fromCache: boolean;
  parsed: ParsedPriceFile;
  /** When the body was fetched (now, for a cache hit the replay time: record it in the sidecar). */
  downloadedAt: Micros;
}

/** The v8 chart URL for daily bars with dividend and split events. */
export function yahooChartUrl(
  symbol: string,
  options: { period1?: number; period2: number; baseUrl?: string },
): string {
  const base = (options.baseUrl ?? YAHOO_CHART_BASE_URL).replace(/\/$/, '');
  const q = `period1=${options.period1 ?? 0}&period2=${options.period2}&interval=1d&events=div%7Csplit&includeAdjustedClose=true`;
  return `${base}/v8/finance/chart/${encodeURIComponent(symbol)}?${q}`;
}

const REFUSAL_HINT: Record<number, string> = {
  401: 'Yahoo now asks for a session cookie and crumb on this endpoint',
  403: 'Yahoo blocks this client or network',
  404: 'Yahoo does not know this symbol (check the spelling, e.g. BRK-B, ^GSPC)',
  429: 'Yahoo rate-limited this client',
};

/**
 * Downloads one symbol's daily chart. The network path is optional: Yahoo changes its terms often, so a
 * refusal (401/403/404/429, an HTML consent or error page instead of JSON) ends in a YAHOO_REFUSED error that
 * says what happened and how to carry on offline (`asof ingest prices --raw-dir` with saved files).
 */
export async function fetchYahooChart(
  symbol: string,
  options: FetchYahooChartOptions,
): Promise<FetchedYahooChart> {
  const now = options.now ?? Date.now;
  const url = yahooChartUrl(symbol, {
    period1: options.period1,
    period2: options.period2 ?? Math.floor(now() / 1000),
    baseUrl: options.baseUrl,
  });
  const offline = 'download the chart JSON another way and ingest it with `asof ingest prices --raw-dir DIR`';
  let res: Awaited<ReturnType<HttpClient['get']>>;
  try {
    res = await options.client.get(url);
  } catch (cause) {
    if (cause instanceof AsofError && cause.code === 'HTTP_UNREACHABLE') {
      // No network: every symbol would fail the same way, so this one is not a per-symbol refusal.
      throw new AsofError(
        'YAHOO_UNREACHABLE',
        `Yahoo chart download for ${symbol}: ${cause.message}; or ${offline}`,
        {
          context: { symbol, url },
          cause,
        },
      );
    }
    const status = (cause as { status?: number }).status;
    const why =
      status === undefined
        ? (cause as Error).message
        : `HTTP ${status}: ${REFUSAL_HINT[status] ?? 'request failed'}`;
    throw new AsofError('YAHOO_REFUSED', `Yahoo chart download for ${symbol} failed (${why}); ${offline}`, {
      context: { symbol, url, status },
      cause,
    });
  }
  const head = res.text.trimStart().slice(0, 200);
  if (head.startsWith('<') || /^(Too Many Requests|Unauthorized|Forbidden)/i.test(head)) {
    throw new AsofError(
      'YAHOO_REFUSED',
      `Yahoo chart download for ${symbol} returned ${head.startsWith('<') ? 'an HTML page (consent, login or error page)' : JSON.stringify(head.slice(0, 40))} instead of chart JSON (HTTP ${res.status}); ${offline}`,
      { context: { symbol, url, status: res.status } },
    );
  }
  const parsed = parseYahooChart(res.text, `Yahoo chart ${symbol}`);
  return {
    symbol,
    url: res.url,
    text: res.text,
    sha256: res.sha256,
    bytes: res.bytes,
    fromCache: res.fromCache,
    parsed,
    downloadedAt: now() * 1000,
  };
}

export interface DownloadYahooChartsResult {
  files: string[];
  failures: { symbol: string; code: string; message: string }[];
}

/**
 * Downloads each symbol into `outDir` as `<SYM>_dl-<YYYY-MM-DD>.json` plus a `.meta.json` sidecar (download
 * instant, the split list from the full-history events), so `ingestPricesRawDir` can replay it offline. A
 * refused symbol is recorded in `failures` and the others continue; files are written to a temp name and
 * renamed into place.
 */
export async function downloadYahooCharts(
  symbols: string[],
  outDir: string,
  options: FetchYahooChartOptions,
): Promise<DownloadYahooChartsResult> {
  const files: string[] = [];
  const failures: DownloadYahooChartsResult['failures'] = [];
  for (const symbol of symbols) {
    let got: FetchedYahooChart;
    try {
      got = await fetchYahooChart(symbol, options);
    } catch (error) {
      if (!(error instanceof AsofError) || error.code === 'YAHOO_UNREACHABLE') throw error;
      failures.push({ symbol, code: error.code, message: oneLineMessage(error.message) });
      continue;
    }
    const day = localDateOfMicros(got.downloadedAt, 'America/New_York');
    const stem = `${symbol.replace(/[^A-Za-z0-9.^=-]/g, '_')}_dl-${day}`;
    const meta: PriceDownloadMeta = {
      symbol,
      downloaded_at: microsToIso(got.downloadedAt),
      url: got.url,
      // With period1=0 the events hold every split to date; a shorter range says nothing about later ones.
      ...((options.period1 ?? 0) === 0
        ? { splits: got.parsed.splits.map((s) => ({ ex_date: s.exDate, ratio: s.ratio })) }
        : {}),
    };
    for (const [name, body] of [
      [`${stem}.json`, got.text],
      [`${stem}.meta.json`, `${JSON.stringify(meta, null, 2)}\n`],
    ] as const) {
      const tmp = join(outDir, `.${name}.tmp`);
      writeFileSync(tmp, body);
      renameSync(tmp, join(outDir, name));
    }
    files.push(`${stem}.json`);
  }
  return { files, failures };
}
