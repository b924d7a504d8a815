import { type Clock, createHttpClient, type HttpClient } from '@asof/http';
import { InputError } from '@asof/schema';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { explainFredFailure } from './explain-fred-failure.ts';
import {
  fetchObservationWindow,
  fetchReleaseDates,
  fetchVintageDates,
  REALTIME_END_ALL,
  REALTIME_START_ALL,
} from './fetch-fred-pages.ts';
import { FredApiError } from './fred-api-error.ts';
import { addDays } from './fred-dates.ts';
import {
  FredErrorResponse,
  type FredObservation,
  type FredRelease,
  FredReleasesResponse,
  type FredSeriesMeta,
  FredSeriesResponse,
  parseFredPayload,
} from './fred-payload.ts';
import type { FredRawResponse } from './fred-raw-response.ts';

export const FRED_BASE_URL = 'https://api.stlouisfed.org/fred';
/** ALFRED refuses an observations request whose realtime window holds more vintage dates than this. */
export const MAX_VINTAGE_DATES_PER_REQUEST = 2000;

export interface FredClientOptions {
  /** Default: env ASOF_FRED_API_KEY. Never logged, cached or put in an error message. */
  apiKey?: string;
  /** Default https://api.stlouisfed.org/fred (tests: http://127.0.0.1:<port>/fred). */
  baseUrl?: string;
  /** A ready client (shared limits); otherwise one is created from the options below. */
  http?: HttpClient;
  cacheDir?: string;
  offline?: boolean;
  dispatcher?: Dispatcher;
  clock?: Clock;
  log?: (line: string) => void;
  /** Requests per `intervalMs` to the FRED host. Default 120 per 60 000 ms (FRED's published limit). */
  maxPerInterval?: number;
  intervalMs?: number;
  /** Pause of the host after a 429. Default 60 000 ms (FRED's window is a minute). */
  rateLimitPauseMs?: number;
  retries?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Default 2000; tests lower it to exercise chunking. */
  maxVintageDatesPerRequest?: number;
  /** `limit` of an observations page. Default 100 000 (FRED's maximum). */
  observationsPageLimit?: number;
}

export interface FredSeriesBundle {
  fredId: string;
  meta: FredSeriesMeta;
  release: FredRelease | undefined;
  /** Release calendar of `release` (ascending), when fetched. */
  releaseDates: string[] | undefined;
  vintageDates: string[];
  /** All vintages, realtime windows stitched into what one unchunked request would have returned. */
  observations: FredObservation[];
  /** Realtime windows requested. */
  windows: { realtime_start: string; realtime_end: string }[];
  responses: FredRawResponse[];
}

export interface FredClient {
  /** GET `<base>/<path>?…&api_key=…&file_type=json`, validated by `schema`; FRED error JSON → FredApiError. */
  getJson<S extends z.ZodType>(
    path: string,
    params: Record<string, string>,
    schema: S,
    what: string,
    seriesId?: string,
  ): Promise<{ json: z.infer<S>; raw: FredRawResponse }>;
  fetchSeries(fredId: string, options?: { releaseDates?: boolean }): Promise<FredSeriesBundle>;
  fetchReleaseDates(releaseId: number): Promise<{ dates: string[]; responses: FredRawResponse[] }>;
  stats(): { requests: number; retries: number; cacheHits: number };
  close(): Promise<void>;
}

const KEY_RE = /^[a-z0-9]{32}$/;

/** Reads and checks ASOF_FRED_API_KEY (or the given key) without ever echoing it. */
export function resolveFredApiKey(apiKey: string | undefined = process.env.ASOF_FRED_API_KEY): string {
  if (apiKey === undefined || apiKey.trim() === '') {
    throw new InputError(
      'FRED_NO_API_KEY',
      'ASOF_FRED_API_KEY is not set; get a free key at https://fred.stlouisfed.org/docs/api/api_key.html and ' +
        'export ASOF_FRED_API_KEY=<32 lower-case letters/digits>, or use --raw-dir / --offline',
    );
  }
  if (!KEY_RE.test(apiKey.trim())) {
    throw new InputError(
      'FRED_BAD_API_KEY',
      `ASOF_FRED_API_KEY has ${apiKey.trim().length} characters; FRED keys are 32 lower-case letters/digits ` +
        '(the value is not shown)',
    );
  }
  return apiKey.trim();
}

/**
 * Realtime windows covering 1776-07-04 … 9999-12-31 without gaps or overlaps, each holding at most `max`
 * vintage dates: window k ends the day before the first vintage date of window k+1.
 */
export function planRealtimeWindows(
  vintageDates: readonly string[],
  max = MAX_VINTAGE_DATES_PER_REQUEST,
): { realtime_start: string; realtime_end: string }[] {
  const sorted = [...new Set(vintageDates)].sort();
  if (sorted.length <= max) return [{ realtime_start: REALTIME_START_ALL, realtime_end: REALTIME_END_ALL }];
  const windows: { realtime_start: string; realtime_end: string }[] = [];
  for (let i = 0; i < sorted.length; i += max) {
    const next = sorted[i + max];
    windows.push({
      realtime_start: i === 0 ? REALTIME_START_ALL : sorted[i],
      realtime_end: next === undefined ? REALTIME_END_ALL : addDays(next, -1),
    });
  }
  return windows;
}

/**
 * Joins the observations of consecutive realtime windows. ALFRED clips each row's realtime interval to the
 * window, so a vintage that spans a seam comes back twice (…→end of window k, start of window k+1→…);
 * those halves are merged into one row. Exact duplicates are dropped; anything else is kept as is.
 */
export function stitchObservationChunks(
  chunks: readonly { realtime_start: string; observations: readonly FredObservation[] }[],
): FredObservation[] {
  const out: FredObservation[] = [];
  const lastByDate = new Map<string, FredObservation>();
  const seen = new Set<string>();
  for (const chunk of chunks) {
    for (const o of chunk.observations) {
      const key = `${o.date}|${o.realtime_start}`;
      const prev = lastByDate.get(o.date);
      if (
        prev !== undefined &&
        o.realtime_start === chunk.realtime_start &&
        prev.value === o.value &&
        addDays(prev.realtime_end, 1) === o.realtime_start
      ) {
        prev.realtime_end = o.realtime_end;
        continue;
      }
      if (seen.has(key)) continue;
      seen.add(key);
      const row = { ...o };
      out.push(row);
      lastByDate.set(o.date, row);
    }
  }
  return out.sort((a, b) =>
    a.date < b.date ? -1 : a.date > b.date ? 1 : a.realtime_start < b.realtime_start ? -1 : 1,
  );
}

/** The @asof/http client for FRED's host: its published rate, one request at a time, the key kept secret. */
function createFredHttpClient(options: FredClientOptions, apiKey: string, host: string): HttpClient {
  return createHttpClient({
    hosts: {
      [host]: {
        maxPerInterval: options.maxPerInterval ?? 120,
        intervalMs: options.intervalMs ?? 60_000,
        // One request at a time keeps FRED's per-minute budget predictable and the order deterministic.
        concurrency: 1,
        rateLimitPauseMs: options.rateLimitPauseMs ?? 60_000,
      },
    },
    secretParams: ['api_key'],
    secretValues: apiKey === '' ? [] : [apiKey],
    unreachableHint:
      'rerun when online, rebuild from responses already in the cache with --offline (pipeline: "offline": true; ' +
      'no ASOF_FRED_API_KEY needed), or replay recorded FRED files with --raw-dir DIR',
    cacheDir: options.cacheDir,
    offline: options.offline,
    dispatcher: options.dispatcher,
    clock: options.clock,
    log: options.log,
    retries: options.retries,
    backoffBaseMs: options.backoffBaseMs,
    backoffMaxMs: options.backoffMaxMs,
  });
}

export function createFredClient(options: FredClientOptions = {}): FredClient {
  const givenKey = options.apiKey ?? process.env.ASOF_FRED_API_KEY;
  // Offline runs read the cache, whose keys never contain api_key, so they need no key at all.
  const apiKey = options.offline === true && (givenKey ?? '') === '' ? '' : resolveFredApiKey(givenKey);
  const baseUrl = (options.baseUrl ?? FRED_BASE_URL).replace(/\/+$/, '');
  const host = new URL(baseUrl).hostname;
  const maxV = options.maxVintageDatesPerRequest ?? MAX_VINTAGE_DATES_PER_REQUEST;
  const pageLimit = options.observationsPageLimit ?? 100_000;
  const ownHttp = options.http === undefined;
  const http = options.http ?? createFredHttpClient(options, apiKey, host);
  const scrub = (text: string) => (apiKey === '' ? text : text.split(apiKey).join('***'));

  async function getJson<S extends z.ZodType>(
    path: string,
    params: Record<string, string>,
    schema: S,
    what: string,
    seriesId?: string,
  ): Promise<{ json: z.infer<S>; raw: FredRawResponse }> {
    const query = new URLSearchParams({ ...params, file_type: 'json' });
    const publicUrl = `${baseUrl}/${path}?${query.toString()}`;
    if (apiKey !== '') query.set('api_key', apiKey);
    let res: Awaited<ReturnType<HttpClient['getJson']>>;
    try {
      res = await http.getJson(`${baseUrl}/${path}?${query.toString()}`);
    } catch (error) {
      throw explainFredFailure(error, { seriesId, what, publicUrl }, scrub);
    }
    const err = FredErrorResponse.safeParse(res.json);
    if (err.success) {
      throw new FredApiError({
        seriesId,
        what,
        url: publicUrl,
        errorCode: err.data.error_code,
        fredMessage: scrub(err.data.error_message),
      });
    }
    const json = parseFredPayload(schema, res.json, `${what} ${publicUrl}`, what);
    return { json, raw: { url: res.url, sha256: res.sha256, bytes: res.bytes, fromCache: res.fromCache } };
  }

  const releaseDateMemo = new Map<number, ReturnType<typeof fetchReleaseDates>>();

  /** One calendar per release, however many of its series are fetched; its responses count once. */
  async function memoReleaseDates(releaseId: number, responses: FredRawResponse[]): Promise<string[]> {
    let pending = releaseDateMemo.get(releaseId);
    const first = pending === undefined;
    if (pending === undefined) {
      pending = fetchReleaseDates(getJson, releaseId);
      releaseDateMemo.set(releaseId, pending);
    }
    const r = await pending;
    if (first) responses.push(...r.responses);
    return r.dates;
  }

  async function fetchSeries(
    fredId: string,
    opts: { releaseDates?: boolean } = {},
  ): Promise<FredSeriesBundle> {
    const responses: FredRawResponse[] = [];
    const series = await getJson('series', { series_id: fredId }, FredSeriesResponse, 'series', fredId);
    responses.push(series.raw);
    const rel = await getJson(
      'series/release',
      { series_id: fredId },
      FredReleasesResponse,
      'series/release',
      fredId,
    );
    responses.push(rel.raw);
    const release = rel.json.releases[0];
    const vintageDates = await fetchVintageDates(getJson, fredId, responses);
    const windows = planRealtimeWindows(vintageDates, maxV);
    const chunks: { realtime_start: string; observations: FredObservation[] }[] = [];
    for (const w of windows) {
      chunks.push({
        realtime_start: w.realtime_start,
        observations: await fetchObservationWindow(getJson, fredId, w, pageLimit, responses),
      });
    }
    const releaseDates =
      opts.releaseDates === true && release !== undefined
        ? await memoReleaseDates(release.id, responses)
        : undefined;
    return {
      fredId,
      meta: series.json.seriess[0],
      release,
      releaseDates,
      vintageDates: [...new Set(vintageDates)].sort(),
      observations: stitchObservationChunks(chunks),
      windows,
      responses,
    };
  }

  return {
    getJson,
    fetchSeries,
    fetchReleaseDates: (releaseId) => fetchReleaseDates(getJson, releaseId),
    stats: () => {
      const s = http.stats();
      return { requests: s.requests, retries: s.retries, cacheHits: s.cacheHits };
    },
    close: async () => {
      if (ownHttp) await http.close();
    },
  };
}
