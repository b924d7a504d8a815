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
  return unique
    .map((c, i) => ({ c, i, d: editDistance(name, c) }))
    .sort((x, y) => x.d - y.d || x.i - y.i)
    .slice(0, limit)
    .map((x) => x.c);
}
