import { AsofError } from '@asof/schema';

/**
 * A request that could not be completed. `url` is always the stripped URL (secret query params removed),
 * `attempts` counts network attempts made, `status` is the last HTTP status seen (undefined when the last
 * attempt failed before a status arrived: reset, timeout, refused).
 *
 * Codes: HTTP_FAILED (retries exhausted or a non-retryable status), HTTP_NOT_FOUND (404/410, never retried),
 * HTTP_RATE_LIMITED (429, or a page `classifyResponse` calls rate-limited, with `noWait`, or still limited after
 * every attempt),
 * HTTP_BAD_BODY (body stayed truncated/corrupt/unparseable after every attempt), HTTP_INVALID_URL,
 * HTTP_UNREACHABLE (no connection was ever made: no network, DNS failure, refused; a failure, exit 1),
 * HTTP_INVALID_REQUEST (undici refused to send it, e.g. a header value with a newline; never retried; exit 2).
 */
export class HttpError extends AsofError {
  readonly url: string;
  readonly attempts: number;
  readonly status: number | undefined;

  constructor(
    code: string,
    message: string,
    options: {
      url: string;
      attempts: number;
      status?: number;
      cause?: unknown;
      context?: Record<string, unknown>;
      /** 2 when the input is at fault (an invalid header value); default 1, network failures included. */
      exitCode?: number;
    },
  ) {
    super(code, message, {
      cause: options.cause,
      context: { url: options.url, attempts: options.attempts, status: options.status, ...options.context },
      exitCode: options.exitCode,
    });
    this.url = options.url;
    this.attempts = options.attempts;
    this.status = options.status;
  }
}

/** `offline: true` and the response is not in the cache. `url` is the stripped URL of the first missing request. */
export class OfflineCacheMissError extends AsofError {
  readonly url: string;
  readonly cacheKey: string;

  constructor(url: string, cacheKey: string, cacheDir: string | undefined) {
    super(
      'HTTP_OFFLINE_MISS',
      `offline mode: no cached response for ${cacheKey} (url ${url}) in ` +
        `${cacheDir ?? '(no cacheDir configured)'}; re-run once without --offline (online) to fetch it into the cache`,
      { context: { url, cacheKey, cacheDir } },
    );
    this.url = url;
    this.cacheKey = cacheKey;
  }
}
