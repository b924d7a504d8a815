import { createRateLimitedError } from './create-rate-limited-error.ts';
import { describeError } from './describe-error.ts';
import { HttpError } from './http-error.ts';

/** The last of the failed attempts, which the error reports. */
export interface LastFailure {
  reason: string;
  status?: number;
  cause?: unknown;
  rateLimited?: boolean;
  unreachable?: string;
}

/**
 * The error once every attempt failed: HTTP_UNREACHABLE when no connection ever opened, HTTP_RATE_LIMITED when
 * the host still limited the last one, HTTP_BAD_BODY when the body stayed corrupt, else HTTP_FAILED.
 */
export function createRetriesExhaustedError(
  last: LastFailure,
  request: {
    stripped: string;
    hostname: string;
    maxAttempts: number;
    pauseMs: number;
    unreachableHint: string | undefined;
  },
  scrub: (text: string) => string,
): HttpError {
  const { stripped, hostname, maxAttempts } = request;
  const attemptsText = `${maxAttempts} attempt${maxAttempts === 1 ? '' : 's'}`;
  if (last.unreachable !== undefined) {
    // One line that names the host and what to do: the usual cause is no network at all.
    return new HttpError(
      'HTTP_UNREACHABLE',
      scrub(
        `cannot reach ${hostname} (${last.unreachable}, ${attemptsText} for GET ${stripped}): ` +
          'no network connection, or the host is down or blocked' +
          (request.unreachableHint === undefined ? '' : `; ${request.unreachableHint}`),
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
    return createRateLimitedError(
      {
        stripped,
        hostname,
        reason: last.reason,
        attempts: maxAttempts,
        status: last.status,
        waitMs: request.pauseMs,
      },
      scrub,
    );
  }
  const code =
    last.reason.startsWith('malformed body') || last.reason.startsWith('corrupt')
      ? 'HTTP_BAD_BODY'
      : 'HTTP_FAILED';
  const cause = last.cause === undefined ? undefined : new Error(scrub(describeError(last.cause)));
  return new HttpError(
    code,
    scrub(
      `GET ${stripped} failed after ${attemptsText} ` +
        `(last: ${last.reason}${last.status === undefined || last.reason.startsWith('HTTP') ? '' : `, HTTP ${last.status}`}); ` +
        'the server or network kept failing: re-run later (responses already fetched are kept in the cache)' +
        (last.reason.startsWith('timed out') ? ' or raise the timeout' : ''),
    ),
    { url: stripped, attempts: maxAttempts, status: last.status, cause },
  );
}
