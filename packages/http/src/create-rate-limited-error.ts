import { HttpError } from './http-error.ts';

/** HTTP_RATE_LIMITED: names the host, why it limited, and how many minutes to wait before a re-run. */
export function createRateLimitedError(
  failure: {
    stripped: string;
    hostname: string;
    reason: string;
    attempts: number;
    status: number | undefined;
    waitMs: number;
  },
  scrub: (text: string) => string,
): HttpError {
  const { stripped, hostname, reason, attempts, status, waitMs } = failure;
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return new HttpError(
    'HTTP_RATE_LIMITED',
    scrub(
      `GET ${stripped}: rate limited by ${hostname} (${reason}); wait ${minutes} minute${minutes === 1 ? '' : 's'} ` +
        'and re-run; the cache keeps what was fetched',
    ),
    { url: stripped, attempts, status, context: { host: hostname, reason } },
  );
}
