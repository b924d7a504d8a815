import { InputError } from './asof-error.ts';
import { shownValue } from './shown-value.ts';

/** Levenshtein distance on lower-cased strings (names differ mostly by case, spacing and typos). */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    for (let j = 1; j <= t.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (s[i - 1] === t[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[t.length];
}

/** The `limit` candidates closest to `name`, closest first (ties in candidate order). */
export function nearestNames(name: string, candidates: Iterable<string>, limit = 3): string[] {
  const unique = [...new Set(candidates)];
  // A pasted 100 KB value is compared by its start: the distance costs length × length per candidate.
  const longest = unique.reduce((m, c) => Math.max(m, c.length), 0);
  name = name.slice(0, longest + 8);
  return unique
    .map((c, i) => ({ c, i, d: editDistance(name, c) }))
    .sort((x, y) => x.d - y.d || x.i - y.i)
    .slice(0, limit)
    .map((x) => x.c);
}

/** Whether `text` has a glob wildcard (`*`, `?`, `[…]`), as `--series` patterns may. */
export function isGlob(text: string): boolean {
  return /[*?[]/.test(text);
}

/**
 * A matcher with the semantics of DuckDB's GLOB, which the readers filter with: `*` any run, `?` one
 * character, `[abc]`, `[a-z]`, `[!a]` or `[^a]` one character of (or not of) a class; everything else literal.
 */
export function globMatcher(pattern: string): (text: string) => boolean {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') re += '[\\s\\S]*';
    else if (c === '?') re += '[\\s\\S]';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end === -1) re += '\\[';
      else {
        let body = pattern.slice(i + 1, end);
        const negate = body[0] === '!' || body[0] === '^';
        if (negate) body = body.slice(1);
        re += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
        i = end;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  const compiled = new RegExp(`^${re}$`, 'u');
  return (text) => compiled.test(text);
}

/** What `requireKnownNames` checks and how it words its refusal. */
export interface KnownNames {
  /** The option as the user wrote it, e.g. `--series`. */
  flag: string;
  /** What a name is, e.g. `series`, `unit`. */
  kind: string;
  /** Where the names were looked for, e.g. `out/default`. */
  where: string;
  /** Stable error code. */
  code: string;
  /** How to list the valid names, e.g. `list series with 'asof series --data out/default --search TEXT'`. */
  listHint: string;
  /** Whether a value may be a glob pattern (`--series 'fred:*'`): it must then match at least one name. */
  globs?: boolean;
}

/**
 * Refuses, before any work, the first value that names nothing: one line naming the option, the value as
 * the user wrote it (escaped, cut), where it was looked for and the nearest names (`did you mean …`), with a
 * hint saying how to list them (exit 2). A glob pattern must match at least one name.
 */
export function requireKnownNames(values: readonly string[], names: readonly string[], o: KnownNames): void {
  const known = new Set(names);
  for (const value of values) {
    if (known.has(value)) continue;
    const pattern = o.globs === true && isGlob(value);
    if (pattern && names.some(globMatcher(value))) continue;
    // For a pattern, the nearest names to its literal part.
    const near = nearestNames(pattern ? value.replace(/[*?]|\[[^\]]*\]/g, '') : value, names, 3);
    const what = pattern
      ? `the pattern matches no ${o.kind} in ${o.where}`
      : `no such ${o.kind} in ${o.where}`;
    throw new InputError(
      o.code,
      `${o.flag} ${shownValue(value)}: ${what}${near.length > 0 ? `; did you mean ${near.join(', ')}?` : ''}\n  hint: ${o.listHint}`,
      { context: { field: o.flag, value, nearest: near } },
    );
  }
}
