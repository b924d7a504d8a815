/** What one network attempt came to, and so what the retry loop does next. */
export type Attempt =
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

/** A response outside 2xx, as a host-specific classifier sees it. */
export interface ClassifiedResponse {
  /** Stripped URL (secret params removed). */
  url: string;
  status: number;
  /** Decoded body as UTF-8 text. */
  text: string;
}

/**
 * A host-specific reading of a response the generic rules would misread: `rate-limited` pauses the whole
 * host (bucket) as a 429 does; `failed` ends the request at once with HTTP_FAILED, never retried. `reason`
 * is named in log lines and error messages, so it says what happened and what the user can do.
 */
export type ResponseVerdict = { kind: 'rate-limited'; reason: string } | { kind: 'failed'; reason: string };

/** Returns undefined to leave the response to the generic rules. */
export type ResponseClassifier = (response: ClassifiedResponse) => ResponseVerdict | undefined;

/** Retry-After: delta-seconds or an HTTP date. Returns ms, or undefined when absent/unparseable. */
function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * The next step for a response whose body decoded: 2xx is data; otherwise the caller's classifier speaks
 * first (it knows its host's pages), then 429 pauses, 5xx and 408 are retried, and every other status fails.
 */
export function classifyStatus(
  response: { url: string; status: number; body: Buffer; contentType: string | null; retryAfter?: string },
  classify: ResponseClassifier | undefined,
): Attempt {
  const { status, body, contentType } = response;
  if (status >= 200 && status < 300) return { kind: 'ok', status, body, contentType };
  const retryAfterMs = parseRetryAfter(response.retryAfter, Date.now());
  const text = body.toString('utf8');
  const verdict = classify?.({ url: response.url, status, text });
  if (verdict?.kind === 'rate-limited')
    return { kind: 'rate-limited', status, reason: verdict.reason, retryAfterMs };
  if (verdict?.kind === 'failed')
    return { kind: 'fatal', code: 'HTTP_FAILED', status, reason: verdict.reason };
  if (status === 429)
    return { kind: 'rate-limited', status, reason: 'HTTP 429 Too Many Requests', retryAfterMs };
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
