export interface SecretOptions {
  secretParams?: string[];
  secretValues?: string[];
}

const REDACTED = '***';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The forms a secret value can take in text someone else wrote: as given, URL-encoded
 * (encodeURIComponent, `%20`), form-encoded (`+` for a space) and both. Matched case-insensitively
 * (see stripSecrets), so `%2f` and `%2F` are one form.
 */
function secretForms(value: string): string[] {
  const encoded = encodeURIComponent(value);
  return [...new Set([value, encoded, value.replace(/ /g, '+'), encoded.replace(/%20/g, '+')])];
}

/**
 * Replace every literal secret value (also its URL- and form-encoded forms, in any letter case) and the
 * value of every secret query parameter (`api_key=…` anywhere in the text, not only in well-formed URLs)
 * with `***`. Case-insensitive because a server or a model may echo a key upper-cased (audit
 * reliability-2026-12, 5.10): FRED keys are lower-case by rule, so the upper-cased echo is the key.
 * The one redaction of asof: every log line, error message and cache file the HTTP client writes, and the
 * model's stderr relayed by `asof run`.
 */
export function stripSecrets(text: string, options: SecretOptions): string {
  let out = text;
  const values = [
    ...new Set((options.secretValues ?? []).filter((v) => typeof v === 'string' && v.length > 0)),
  ];
  // Longest first so a secret that contains another is removed whole.
  const forms = [...new Set(values.flatMap(secretForms))].sort((a, b) => b.length - a.length);
  if (forms.length > 0) out = out.replace(new RegExp(forms.map(escapeRegExp).join('|'), 'gi'), REDACTED);
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
