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

const RATE_THRESHOLD_PAGE = /Request Rate Threshold Exceeded/i;
const UNDECLARED_TOOL_PAGE = /Undeclared Automated Tool|declare your traffic/i;

/** Retry-After: delta-seconds or an HTTP date. Returns ms, or undefined when absent/unparseable. */
function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * The next step for a response whose body decoded: 2xx is data; 429 and SEC's 403 threshold page pause, 5xx
 * and 408 are retried, and every other status fails.
 */
export function classifyStatus(response: {
  status: number;
  body: Buffer;
  contentType: string | null;
  retryAfter?: string;
}): Attempt {
  const { status, body, contentType } = response;
  if (status >= 200 && status < 300) return { kind: 'ok', status, body, contentType };
  const retryAfterMs = parseRetryAfter(response.retryAfter, Date.now());
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
