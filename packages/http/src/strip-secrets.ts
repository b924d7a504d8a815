export interface SecretOptions {
  secretParams?: string[];
  secretValues?: string[];
}

const REDACTED = '***';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Replace every literal secret value (also its URL-encoded forms) and the value of every secret query
 * parameter (`api_key=…` anywhere in the text, not only in well-formed URLs) with `***`.
 * Used for every log line, error message and cache file the client writes.
 */
export function stripSecrets(text: string, options: SecretOptions): string {
  let out = text;
  const values = [
    ...new Set((options.secretValues ?? []).filter((v) => typeof v === 'string' && v.length > 0)),
  ]
    // Longest first so a secret that contains another is removed whole.
    .sort((a, b) => b.length - a.length);
  for (const value of values) {
    for (const form of new Set([value, encodeURIComponent(value), value.replace(/ /g, '+')])) {
      out = out.split(form).join(REDACTED);
    }
  }
  for (const param of options.secretParams ?? []) {
    if (param.length === 0) continue;
    const re = new RegExp(`([?&;]|\\b)(${escapeRegExp(param)}=)([^&#\\s"'<>]*)`, 'gi');
    out = out.replace(re, (_m, sep: string, name: string) => `${sep}${name}${REDACTED}`);
  }
  return out;
}

/**
 * The URL with secret query parameters removed entirely (not redacted), so cache keys and reported URLs
 * do not depend on which key was used. Parameter order is otherwise kept as given.
 */
export function stripUrl(url: string, options: SecretOptions): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return stripSecrets(url, options);
  }
  const secret = new Set((options.secretParams ?? []).map((p) => p.toLowerCase()));
  // Only re-serialise the query when something is removed: URLSearchParams re-encodes (`%20` → `+`).
  for (const name of [...parsed.searchParams.keys()]) {
    if (secret.has(name.toLowerCase()) && parsed.searchParams.has(name)) parsed.searchParams.delete(name);
  }
  parsed.username = '';
  parsed.password = '';
  return stripSecrets(parsed.toString(), options);
}
