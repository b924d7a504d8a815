import { stripSecrets, stripUrl } from './strip-secrets.ts';

/** Headers whose values identify the user (or hold a credential): their values are secrets too. */
const SENSITIVE_HEADERS = new Set([
  'user-agent',
  'from',
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-api-key',
  'api-key',
]);

export interface Scrubber {
  /** `text` with every known secret redacted. */
  scrub(text: string): string;
  /** `url` without its secret query params. */
  stripUrl(url: string): string;
  /** Learns the values of identifying headers, so no later line repeats them. */
  addHeaderSecrets(headers: Record<string, string>): void;
}

/** The client's one place that knows its secrets; the set grows with the headers of each request. */
export function createScrubber(secretParams: string[] | undefined, values: string[] | undefined): Scrubber {
  const secretValues = new Set((values ?? []).filter((v) => typeof v === 'string' && v !== ''));
  const secretOptions = () => ({ secretParams, secretValues: [...secretValues] });
  return {
    scrub: (text) => stripSecrets(text, secretOptions()),
    stripUrl: (url) => stripUrl(url, secretOptions()),
    addHeaderSecrets(headers) {
      for (const [name, value] of Object.entries(headers)) {
        if (SENSITIVE_HEADERS.has(name) && value.length >= 4) secretValues.add(value);
      }
    },
  };
}
