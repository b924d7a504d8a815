import { HttpError } from './http-error.ts';

/** The URL of a request, which must be absolute http(s); else HTTP_INVALID_URL before any attempt. */
export function parseRequestUrl(url: string, scrub: (text: string) => string): URL {
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
  return parsed;
}
