import type { Dispatcher } from 'undici';
import { type Attempt, classifyStatus, type ResponseClassifier } from './classify-status.ts';
import type { LazyTransport } from './create-lazy-transport.ts';
import { decodeBody } from './decode-body.ts';
import { describeError } from './describe-error.ts';

export interface AttemptSettings {
  timeoutMs: number;
  transport: LazyTransport;
  /** The caller's reading of its host's own pages (HttpClientOptions.classifyResponse). */
  classify: ResponseClassifier | undefined;
}

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

function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A request that failed before a whole body arrived: refused by undici, timed out, reset, unreachable. */
function classifyFailure(error: unknown, timeoutMs: number): Attempt {
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

/**
 * One GET over the network. `release` is called as soon as the server has certainly seen the request
 * (headers in) or it failed. `stripped` is the URL the classifier sees.
 */
export async function attemptRequest(
  url: string,
  stripped: string,
  headers: Record<string, string>,
  release: () => void,
  settings: AttemptSettings,
): Promise<Attempt> {
  const { timeoutMs } = settings;
  let response: Dispatcher.ResponseData;
  let raw: ArrayBuffer;
  try {
    const signal = AbortSignal.timeout(timeoutMs);
    const { request, dispatcher } = await settings.transport.load();
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
    return classifyFailure(error, timeoutMs);
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
  return classifyStatus(
    { url: stripped, status, body, contentType, retryAfter: headerValue(response.headers, 'retry-after') },
    settings.classify,
  );
}
