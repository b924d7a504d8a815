import type { HttpResponse } from './http-client.ts';
import type { ResponseCache } from './response-cache.ts';

/**
 * The cached response for `key`, or undefined on a miss. With `validate` (getJson), a cached body that fails
 * it counts as a miss, so a corrupt copy is fetched again rather than served.
 */
export async function readCachedResponse(
  cache: ResponseCache,
  key: string,
  stripped: string,
  validate: ((text: string) => void) | undefined,
  log: (line: string) => void,
): Promise<HttpResponse | undefined> {
  const hit = await cache.get(key);
  if (hit === undefined) return undefined;
  const text = hit.body.toString('utf8');
  if (validate !== undefined) {
    try {
      validate(text);
    } catch {
      log(`cached body for ${key} is not valid JSON; ignoring the cached copy`);
      return undefined;
    }
  }
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
