import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/http's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const HTTP_ERRORS = {
  HTTP_BAD_BODY: {
    exit: 1,
    when: 'a response body stayed truncated, corrupt or unparseable after every attempt',
    fix: 'run again later; the cache keeps what was fetched',
  },
  HTTP_FAILED: {
    exit: 1,
    when: 'an HTTP request failed after its retries, or got a non-retryable status',
    fix: 'the message names the status; run again later, or fix what it names (e.g. the User-Agent)',
  },
  HTTP_INVALID_REQUEST: {
    exit: 2,
    when: 'the HTTP client refused to send a request (e.g. a header value with a newline)',
    fix: 'fix the value the message names',
  },
  HTTP_INVALID_URL: { exit: 1, when: 'a URL is not absolute', fix: 'pass http(s)://host/path' },
  HTTP_NOT_FOUND: {
    exit: 1,
    when: 'the server answered 404 or 410',
    fix: 'check the id or URL the message names',
  },
  HTTP_OFFLINE_MISS: {
    exit: 1,
    when: 'offline mode and the response is not in the cache',
    fix: 'run once without --offline to fetch it into the cache',
  },
  HTTP_RATE_LIMITED: {
    exit: 1,
    when: 'the host rate-limited the requests',
    fix: 'wait the minutes the message names and run again; the cache keeps what was fetched',
  },
  HTTP_UNREACHABLE: {
    exit: 1,
    when: 'no connection could be made (no network, DNS failure, refused)',
    fix: 'connect, or run offline from the cache',
  },
} as const satisfies ErrorCatalogue;
