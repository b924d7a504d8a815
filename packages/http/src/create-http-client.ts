import type { Dispatcher } from 'undici';
import type { ResponseClassifier } from './classify-status.ts';
import { type Clock, systemClock } from './clock.ts';
import { createLazyTransport } from './create-lazy-transport.ts';
import { createScrubber } from './create-scrubber.ts';
import { type FreshRequest, fetchWithRetries, type RetryContext } from './fetch-with-retries.ts';
import { DEFAULT_POLICY, type HostPolicy } from './host-policy.ts';
import type { HttpClient, HttpRequestInit, HttpResponse, HttpStats } from './http-client.ts';
import { OfflineCacheMissError } from './http-error.ts';
import { parseRequestUrl } from './parse-request-url.ts';
import { readCachedResponse } from './read-cached-response.ts';
import { ResponseCache, sha256Hex } from './response-cache.ts';

export interface HttpClientOptions {
  /** Keyed by hostname, e.g. 'api.example.com'; other hosts get `defaultPolicy`. */
  hosts?: Record<string, HostPolicy>;
  defaultPolicy?: HostPolicy;
  /** Sent with every request, e.g. { 'user-agent': 'Jane Doe jane@example.com' }; undefined values are dropped. */
  headers?: Record<string, string | undefined>;
  /** Query params removed from cache keys and reported URLs and redacted in logs/errors (e.g. api_key). */
  secretParams?: string[];
  /**
   * Literal strings never written anywhere (the UA, the key). Values of identifying headers (user-agent,
   * authorization, cookie, x-api-key…) given in `headers` or per request are added automatically.
   */
  secretValues?: string[];
  /** Raw-response cache directory. Without it nothing is cached. */
  cacheDir?: string;
  /** Serve only from the cache; a miss throws OfflineCacheMissError. */
  offline?: boolean;
  /** On a rate-limit response, fail at once (HTTP_RATE_LIMITED) instead of pausing the host. */
  noWait?: boolean;
  /** Retries after the first attempt for transient failures. Default 4, i.e. at most 5 attempts. */
  retries?: number;
  /** Per-attempt timeout covering connect, headers and the whole body. Default 30 000 ms. */
  timeoutMs?: number;
  /** undici dispatcher (MockAgent in tests). Default: a private Agent closed by `close()`. */
  dispatcher?: Dispatcher;
  /** Time source for the window, pauses and backoff. Limits are shared process-wide per clock object. */
  clock?: Clock;
  /** Stderr by default; every line is scrubbed of secrets. */
  log?: (line: string) => void;
  /** Full-jitter backoff: delay = random() * min(backoffMaxMs, backoffBaseMs * 2^(retry-1)). Defaults 500 / 30 000 ms. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Uniform [0,1) source for the jitter; injectable for tests. */
  random?: () => number;
  /**
   * Appended to the message when a host cannot be reached at all (no network, DNS failure, connection
   * refused): what the user can do instead, e.g. "rebuild from the cache with --offline". Never a secret.
   */
  unreachableHint?: string;
  /**
   * Reads a response outside 2xx before the generic status rules: the source that knows its host recognises
   * that host's own pages here (a rate-limit page served as 403, say), so this client knows no host.
   */
  classifyResponse?: ResponseClassifier;
}

/** Lower-cased header names; undefined values dropped. */
function mergeHeaders(into: Record<string, string>, extra: Record<string, string | undefined> | undefined) {
  for (const [name, value] of Object.entries(extra ?? {})) {
    if (value !== undefined) into[name.toLowerCase()] = value;
  }
  return into;
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const retries = options.retries ?? 4;
  if (!Number.isInteger(retries) || retries < 0)
    throw new RangeError(`retries must be an integer >= 0, got ${retries}`);
  const transport = createLazyTransport(options.dispatcher);
  const cache = options.cacheDir === undefined ? undefined : new ResponseCache(options.cacheDir);
  const baseHeaders = mergeHeaders({ 'accept-encoding': 'gzip, deflate' }, options.headers);
  const secrets = createScrubber(options.secretParams, options.secretValues);
  secrets.addHeaderSecrets(baseHeaders);
  const scrub = secrets.scrub;
  const write = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const log = (line: string) => write(scrub(`[asof/http] ${line}`));
  const stats: HttpStats = { requests: 0, retries: 0, cacheHits: 0, byHost: {} };
  const inflight = new Map<string, Promise<HttpResponse>>();
  const ctx: RetryContext = {
    clock: options.clock ?? systemClock,
    maxAttempts: retries + 1,
    noWait: options.noWait === true,
    stats,
    scrub,
    log,
    policyFor: (hostname) => options.hosts?.[hostname] ?? options.defaultPolicy ?? DEFAULT_POLICY,
    backoff: {
      backoffBaseMs: options.backoffBaseMs ?? 500,
      backoffMaxMs: options.backoffMaxMs ?? 30_000,
      random: options.random ?? Math.random,
    },
    attempt: { timeoutMs: options.timeoutMs ?? 30_000, transport, classify: options.classifyResponse },
    unreachableHint: options.unreachableHint,
  };

  /** From the cache when it holds the key, else from the network, storing the (scrubbed) body. */
  async function fetchResponse(key: string, request: FreshRequest): Promise<HttpResponse> {
    const { stripped, validate } = request;
    if (cache !== undefined) {
      const hit = await readCachedResponse(cache, key, stripped, validate, log);
      if (hit !== undefined) {
        stats.cacheHits++;
        return hit;
      }
    }
    if (options.offline === true) throw new OfflineCacheMissError(stripped, key, options.cacheDir);
    const fresh = await fetchWithRetries(ctx, request);
    // A body that echoes a secret (a key in an error page, say) is scrubbed before it is hashed and stored.
    let body = fresh.body;
    let text = fresh.text;
    const scrubbed = scrub(text);
    if (scrubbed !== text) {
      text = scrubbed;
      body = Buffer.from(text, 'utf8');
    }
    const sha256 = sha256Hex(body);
    if (cache !== undefined) {
      await cache.put({ key, status: fresh.status, content_type: fresh.contentType, url: stripped }, body);
    }
    return {
      url: stripped,
      status: fresh.status,
      text,
      sha256,
      bytes: body.byteLength,
      fromCache: false,
      contentType: fresh.contentType,
    };
  }

  /** Concurrent calls for one key (and kind) share one fetch. */
  async function fetchText(
    url: string,
    init: HttpRequestInit | undefined,
    validate?: (text: string) => void,
  ): Promise<HttpResponse> {
    const parsed = parseRequestUrl(url, scrub);
    const stripped = secrets.stripUrl(url);
    const headers = mergeHeaders({ ...baseHeaders }, init?.headers);
    secrets.addHeaderSecrets(headers);
    const key = `GET ${init?.cacheKey === undefined ? stripped : scrub(init.cacheKey)}`;
    const dedupeKey = `${validate === undefined ? 'text' : 'json'} ${key}`;
    const running = inflight.get(dedupeKey);
    if (running !== undefined) return running;
    const promise = fetchResponse(key, { url, stripped, hostname: parsed.hostname, headers, validate });
    inflight.set(dedupeKey, promise);
    try {
      return await promise;
    } finally {
      inflight.delete(dedupeKey);
    }
  }

  return {
    get: (url, init) => fetchText(url, init),
    async getJson<T = unknown>(url: string, init?: HttpRequestInit) {
      let json: unknown;
      const response = await fetchText(url, init, (text) => {
        json = JSON.parse(text);
      });
      // A cache hit or a deduplicated call did not run this call's validator.
      if (json === undefined) json = JSON.parse(response.text);
      return { ...response, json: json as T };
    },
    stats: () => ({ ...stats, byHost: { ...stats.byHost } }),
    close: () => transport.close(),
  };
}
