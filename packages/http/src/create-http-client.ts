import PQueue from 'p-queue';
import type { Dispatcher } from 'undici';
import { type Clock, systemClock } from './clock.ts';
import { decodeBody } from './decode-body.ts';
import { HttpError, OfflineCacheMissError } from './http-error.ts';
import { ResponseCache, sha256Hex } from './response-cache.ts';
import { LimiterPausedError, SlidingWindowLimiter } from './sliding-window-limiter.ts';
import { stripSecrets, stripUrl } from './strip-secrets.ts';

export interface HostPolicy {
  /** At most this many request starts in any window of `intervalMs` (sliding, not aligned). */
  maxPerInterval: number;
  intervalMs: number;
  /** Requests in flight at once for this host. Default: maxPerInterval. */
  concurrency?: number;
  /** Pause of the whole host after a 429 or SEC's 403 rate-threshold page. Default 10 minutes. */
  rateLimitPauseMs?: number;
  /**
   * Hosts with the same bucket share one window and one pause (SEC counts www.sec.gov and data.sec.gov
   * together). Default: the hostname.
   */
  bucket?: string;
  /** Extra spacing added to the window (default 0; the window already runs from response headers, see SlidingWindowLimiter). */
  marginMs?: number;
}

export interface HttpClientOptions {
  /** Keyed by hostname, e.g. 'data.sec.gov'; other hosts get `defaultPolicy`. */
  hosts?: Record<string, HostPolicy>;
  defaultPolicy?: HostPolicy;
  /** Sent with every request, e.g. { 'user-agent': process.env.ASOF_SEC_USER_AGENT }; undefined values are dropped. */
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
}

export interface HttpResponse {
  /** Stripped URL (secret params removed). */
  url: string;
  status: number;
  /** Decoded (decompressed) body as UTF-8 text. */
  text: string;
  /** sha256 of the decoded body bytes, as stored in the cache. */
  sha256: string;
  bytes: number;
  fromCache: boolean;
  contentType: string | null;
}

export interface HttpRequestInit {
  headers?: Record<string, string | undefined>;
  /** Overrides the cache key (default: method + stripped URL). Scrubbed of secrets before use. */
  cacheKey?: string;
}

export interface HttpStats {
  /** Network attempts started (retries included; cache hits excluded). */
  requests: number;
  retries: number;
  cacheHits: number;
  /** Network attempts per hostname. */
  byHost: Record<string, number>;
}

export interface HttpClient {
  get(url: string, init?: HttpRequestInit): Promise<HttpResponse>;
  /** Like get, but a body that is not valid JSON counts as a corrupt transfer (retried, never cached). */
  getJson<T = unknown>(url: string, init?: HttpRequestInit): Promise<HttpResponse & { json: T }>;
  stats(): HttpStats;
  close(): Promise<void>;
}

const DEFAULT_POLICY: HostPolicy = { maxPerInterval: 5, intervalMs: 1000, concurrency: 5 };
const DEFAULT_PAUSE_MS = 10 * 60 * 1000;
const SENSITIVE_HEADERS = new Set([
  'user-agent',
  'from',
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-api-key',
  'api-key',
]);
const RATE_THRESHOLD_PAGE = /Request Rate Threshold Exceeded/i;
const UNDECLARED_TOOL_PAGE = /Undeclared Automated Tool|declare your traffic/i;

interface HostSlot {
  limiter: SlidingWindowLimiter;
  queue: PQueue;
}

/**
 * Per-clock registry so that every client in the process that talks to the same host (or bucket) with the
 * same clock shares one window: SEC's 10/s is per user across the whole process, not per client object.
 */
const registry = new WeakMap<Clock, Map<string, HostSlot>>();

function hostSlot(clock: Clock, bucket: string, policy: HostPolicy): HostSlot {
  let byBucket = registry.get(clock);
  if (byBucket === undefined) {
    byBucket = new Map();
    registry.set(clock, byBucket);
  }
  const key = `${bucket}|${policy.maxPerInterval}/${policy.intervalMs}|${policy.marginMs ?? ''}|${policy.concurrency ?? ''}`;
  let slot = byBucket.get(key);
  if (slot === undefined) {
    slot = {
      limiter: new SlidingWindowLimiter(policy, clock),
      queue: new PQueue({ concurrency: policy.concurrency ?? policy.maxPerInterval }),
    };
    byBucket.set(key, slot);
  }
  return slot;
}

/** Retry-After: delta-seconds or an HTTP date. Returns ms, or undefined when absent/unparseable. */
function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

type Attempt =
  | { kind: 'ok'; status: number; body: Buffer; contentType: string | null }
  | {
      kind: 'retry';
      reason: string;
      status?: number;
      minDelayMs?: number;
      cause?: unknown;
      /** The connection never opened (DNS, refused, no route): the host or the network is down. */
      unreachable?: string;
    }
  | { kind: 'rate-limited'; status: number; reason: string; retryAfterMs?: number }
  | { kind: 'fatal'; code: string; status: number; reason: string };

/** Socket errors that mean no connection was ever made: no network, no DNS answer, nothing listening. */
const UNREACHABLE_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'ECONNREFUSED',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function errorCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && !error.message.includes(code)
      ? `${code} ${error.message}`
      : error.message;
  }
  return String(error);
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const retries = options.retries ?? 4;
  if (!Number.isInteger(retries) || retries < 0)
    throw new RangeError(`retries must be an integer >= 0, got ${retries}`);
  const maxAttempts = retries + 1;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const backoffBaseMs = options.backoffBaseMs ?? 500;
  const backoffMaxMs = options.backoffMaxMs ?? 30_000;
  // undici is loaded at the first request, not at start: most commands never fetch, and its import
  // costs every one of them ~0.1 s. The private Agent is created then too.
  let ownDispatcher: Dispatcher | undefined;
  const undiciRequest = async (): Promise<{
    request: typeof import('undici').request;
    dispatcher: Dispatcher;
  }> => {
    const undici = await import('undici');
    if (options.dispatcher === undefined && ownDispatcher === undefined)
      ownDispatcher = new undici.Agent({ keepAliveTimeout: 10_000 });
    return { request: undici.request, dispatcher: options.dispatcher ?? (ownDispatcher as Dispatcher) };
  };
  const cache = options.cacheDir === undefined ? undefined : new ResponseCache(options.cacheDir);

  const baseHeaders: Record<string, string> = { 'accept-encoding': 'gzip, deflate' };
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value !== undefined) baseHeaders[name.toLowerCase()] = value;
  }
  const secretValues = new Set((options.secretValues ?? []).filter((v) => typeof v === 'string' && v !== ''));
  const addHeaderSecrets = (headers: Record<string, string>) => {
    for (const [name, value] of Object.entries(headers)) {
      if (SENSITIVE_HEADERS.has(name) && value.length >= 4) secretValues.add(value);
    }
  };
  addHeaderSecrets(baseHeaders);
  const secretOptions = () => ({ secretParams: options.secretParams, secretValues: [...secretValues] });
  const scrub = (text: string) => stripSecrets(text, secretOptions());
  const write = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const log = (line: string) => write(scrub(`[asof/http] ${line}`));

  const stats: HttpStats = { requests: 0, retries: 0, cacheHits: 0, byHost: {} };
  const inflight = new Map<string, Promise<HttpResponse>>();

  const policyFor = (hostname: string): HostPolicy =>
    options.hosts?.[hostname] ?? options.defaultPolicy ?? DEFAULT_POLICY;

  /** `release` is called as soon as the server has certainly seen the request (headers in) or it failed. */
  async function attemptOnce(
    url: string,
    headers: Record<string, string>,
    release: () => void,
  ): Promise<Attempt> {
    let response: Dispatcher.ResponseData;
    let raw: ArrayBuffer;
    try {
      const signal = AbortSignal.timeout(timeoutMs);
      const { request, dispatcher } = await undiciRequest();
      response = await request(url, {
        method: 'GET',
        headers,
        dispatcher,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      release();
      raw = await response.body.arrayBuffer();
    } catch (error) {
      release();
      const code = errorCode(error);
      // A request undici refuses to send (a header value with a newline, say) fails the same way every
      // time: no retry.
      if (code === 'UND_ERR_INVALID_ARG') {
        return {
          kind: 'fatal',
          code: 'HTTP_INVALID_REQUEST',
          status: 0,
          reason: `the request was not sent: ${describeError(error)}`,
        };
      }
      const name = error instanceof Error ? error.name : '';
      const reason =
        name === 'TimeoutError' || name === 'AbortError' || /timeout/i.test(describeError(error))
          ? `timed out after ${timeoutMs} ms`
          : describeError(error);
      const unreachable = code !== undefined && UNREACHABLE_CODES.has(code) ? code : undefined;
      return { kind: 'retry', reason, cause: error, unreachable };
    }
    const status = response.statusCode;
    const contentType = headerValue(response.headers, 'content-type') ?? null;
    let body: Buffer;
    try {
      body = decodeBody(new Uint8Array(raw), headerValue(response.headers, 'content-encoding'));
    } catch (error) {
      return {
        kind: 'retry',
        status,
        reason: `corrupt or truncated body (${describeError(error)})`,
        cause: error,
      };
    }
    if (status >= 200 && status < 300) return { kind: 'ok', status, body, contentType };
    const retryAfterMs = parseRetryAfter(headerValue(response.headers, 'retry-after'), Date.now());
    const text = body.toString('utf8');
    if (status === 429)
      return { kind: 'rate-limited', status, reason: 'HTTP 429 Too Many Requests', retryAfterMs };
    if (status === 403 && RATE_THRESHOLD_PAGE.test(text)) {
      return {
        kind: 'rate-limited',
        status,
        reason: 'HTTP 403 "Request Rate Threshold Exceeded"',
        retryAfterMs,
      };
    }
    if (status === 403 && UNDECLARED_TOOL_PAGE.test(text)) {
      return {
        kind: 'fatal',
        code: 'HTTP_FAILED',
        status,
        reason:
          'HTTP 403 "Undeclared Automated Tool": the server wants a declared User-Agent; set ASOF_SEC_USER_AGENT ' +
          'to "Your Name your.email@example.com" and re-run',
      };
    }
    if (status >= 500 || status === 408) {
      return { kind: 'retry', status, reason: `HTTP ${status}`, minDelayMs: retryAfterMs };
    }
    const snippet = text.replace(/\s+/g, ' ').trim().slice(0, 200);
    const code = status === 404 || status === 410 ? 'HTTP_NOT_FOUND' : 'HTTP_FAILED';
    return {
      kind: 'fatal',
      code,
      status,
      reason: `HTTP ${status} (expected 2xx)${snippet === '' ? '' : `: ${snippet}`}`,
    };
  }

  async function fetchFresh(
    url: string,
    stripped: string,
    hostname: string,
    headers: Record<string, string>,
    validate: ((text: string) => void) | undefined,
  ): Promise<{ status: number; body: Buffer; text: string; contentType: string | null }> {
    const policy = policyFor(hostname);
    const slot = hostSlot(clock, policy.bucket ?? hostname, policy);
    const pauseMs = policy.rateLimitPauseMs ?? DEFAULT_PAUSE_MS;
    let last: {
      reason: string;
      status?: number;
      cause?: unknown;
      rateLimited?: boolean;
      unreachable?: string;
    } = {
      reason: 'no attempt',
    };

    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const outcome = await slot.queue.add(async (): Promise<Attempt> => {
        let release: () => void;
        try {
          release = await slot.limiter.acquire({ noWait: options.noWait === true });
        } catch (error) {
          if (error instanceof LimiterPausedError) {
            // An earlier response already paused this host: fail fast, saying how long the pause still runs.
            const remaining = error.pausedUntil - clock.now();
            throw rateLimitedError(stripped, hostname, error.reason, attempt - 1, undefined, remaining);
          }
          throw error;
        }
        stats.requests++;
        stats.byHost[hostname] = (stats.byHost[hostname] ?? 0) + 1;
        return attemptOnce(url, headers, release);
      });

      if (outcome.kind === 'ok') {
        const text = outcome.body.toString('utf8');
        if (validate !== undefined) {
          try {
            validate(text);
          } catch (error) {
            last = {
              status: outcome.status,
              reason: `malformed body (${describeError(error)})`,
              cause: error,
            };
            if (attempt < maxAttempts) await backoff(attempt, stripped, last.reason);
            continue;
          }
        }
        return { status: outcome.status, body: outcome.body, text, contentType: outcome.contentType };
      }
      if (outcome.kind === 'fatal') {
        throw new HttpError(outcome.code, scrub(`GET ${stripped} failed: ${outcome.reason}`), {
          url: stripped,
          attempts: attempt,
          status: outcome.status === 0 ? undefined : outcome.status,
          exitCode: outcome.code === 'HTTP_INVALID_REQUEST' ? 2 : undefined,
        });
      }
      if (outcome.kind === 'rate-limited') {
        const waitMs = Math.max(pauseMs, outcome.retryAfterMs ?? 0);
        // Pause the host even with noWait, so other requests in this run stop too.
        slot.limiter.pause(clock.now() + waitMs, outcome.reason);
        if (options.noWait === true)
          throw rateLimitedError(stripped, hostname, outcome.reason, attempt, outcome.status, waitMs);
        last = { status: outcome.status, reason: outcome.reason, rateLimited: true };
        if (attempt < maxAttempts) {
          stats.retries++;
          log(
            `rate limited by ${hostname} (${outcome.reason}) on GET ${stripped}; pausing all requests to ` +
              `${hostname} for ${Math.round(waitMs / 1000)} s (attempt ${attempt}/${maxAttempts})`,
          );
        }
        continue;
      }
      last = {
        status: outcome.status,
        reason: outcome.reason,
        cause: outcome.cause,
        unreachable: outcome.unreachable,
      };
      if (attempt < maxAttempts) await backoff(attempt, stripped, outcome.reason, outcome.minDelayMs);
    }

    if (last.unreachable !== undefined) {
      // One line that names the host and what to do: the usual cause is no network at all.
      throw new HttpError(
        'HTTP_UNREACHABLE',
        scrub(
          `cannot reach ${hostname} (${last.unreachable}, ${maxAttempts} attempt${maxAttempts === 1 ? '' : 's'} for GET ${stripped}): ` +
            'no network connection, or the host is down or blocked' +
            (options.unreachableHint === undefined ? '' : `; ${options.unreachableHint}`),
        ),
        {
          url: stripped,
          attempts: maxAttempts,
          cause: new Error(scrub(describeError(last.cause))),
          // A failure, not bad input (README: exit 2 is for input the user can correct): exit 1.
          context: { host: hostname, error_code: last.unreachable },
        },
      );
    }

    if (last.rateLimited === true) {
      throw rateLimitedError(stripped, hostname, last.reason, maxAttempts, last.status, pauseMs);
    }
    const code =
      last.reason.startsWith('malformed body') || last.reason.startsWith('corrupt')
        ? 'HTTP_BAD_BODY'
        : 'HTTP_FAILED';
    const cause = last.cause === undefined ? undefined : new Error(scrub(describeError(last.cause)));
    throw new HttpError(
      code,
      scrub(
        `GET ${stripped} failed after ${maxAttempts} attempt${maxAttempts === 1 ? '' : 's'} ` +
          `(last: ${last.reason}${last.status === undefined || last.reason.startsWith('HTTP') ? '' : `, HTTP ${last.status}`}); ` +
          'the server or network kept failing: re-run later (responses already fetched are kept in the cache)' +
          (last.reason.startsWith('timed out') ? ' or raise the timeout' : ''),
      ),
      { url: stripped, attempts: maxAttempts, status: last.status, cause },
    );
  }

  function rateLimitedError(
    stripped: string,
    hostname: string,
    reason: string,
    attempts: number,
    status: number | undefined,
    waitMs: number | undefined,
  ): HttpError {
    const policy = policyFor(hostname);
    const minutes = Math.max(1, Math.ceil((waitMs ?? policy.rateLimitPauseMs ?? DEFAULT_PAUSE_MS) / 60_000));
    return new HttpError(
      'HTTP_RATE_LIMITED',
      scrub(
        `GET ${stripped}: rate limited by ${hostname} (${reason}); wait ${minutes} minute${minutes === 1 ? '' : 's'} ` +
          'and re-run; the cache keeps what was fetched',
      ),
      { url: stripped, attempts, status, context: { host: hostname, reason } },
    );
  }

  async function backoff(
    attempt: number,
    stripped: string,
    reason: string,
    minDelayMs?: number,
  ): Promise<void> {
    stats.retries++;
    const ceiling = Math.min(backoffMaxMs, backoffBaseMs * 2 ** (attempt - 1));
    const delay = Math.max(minDelayMs ?? 0, Math.floor(random() * ceiling));
    log(`retry ${attempt}/${maxAttempts - 1} GET ${stripped} after ${reason}; waiting ${delay} ms`);
    await clock.sleep(delay);
  }

  async function fetchText(
    url: string,
    init: HttpRequestInit | undefined,
    validate?: (text: string) => void,
  ) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new HttpError(
        'HTTP_INVALID_URL',
        scrub(`not an absolute URL: "${url}"; pass http(s)://host/path`),
        {
          url: scrub(url),
          attempts: 0,
        },
      );
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new HttpError('HTTP_INVALID_URL', scrub(`unsupported protocol in "${url}"; use http or https`), {
        url: scrub(url),
        attempts: 0,
      });
    }
    const stripped = stripUrl(url, secretOptions());
    const headers = { ...baseHeaders };
    for (const [name, value] of Object.entries(init?.headers ?? {})) {
      if (value !== undefined) headers[name.toLowerCase()] = value;
    }
    addHeaderSecrets(headers);
    const key = `GET ${init?.cacheKey === undefined ? stripped : scrub(init.cacheKey)}`;
    const dedupeKey = `${validate === undefined ? 'text' : 'json'} ${key}`;
    const running = inflight.get(dedupeKey);
    if (running !== undefined) return running;
    const promise = (async (): Promise<HttpResponse> => {
      if (cache !== undefined) {
        const hit = await cache.get(key);
        if (hit !== undefined) {
          const text = hit.body.toString('utf8');
          let valid = true;
          if (validate !== undefined) {
            try {
              validate(text);
            } catch {
              valid = false;
              log(`cached body for ${key} is not valid JSON; ignoring the cached copy`);
            }
          }
          if (valid) {
            stats.cacheHits++;
            return {
              url: stripped,
              status: hit.entry.status,
              text,
              sha256: hit.entry.sha256,
              bytes: hit.entry.bytes,
              fromCache: true,
              contentType: hit.entry.content_type,
            };
          }
        }
      }
      if (options.offline === true) throw new OfflineCacheMissError(stripped, key, options.cacheDir);
      const fresh = await fetchFresh(url, stripped, parsed.hostname, headers, validate);
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
    })();
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
    async close() {
      await ownDispatcher?.close();
    },
  };
}
