import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderLeaderboard } from './render-leaderboard.ts';
import type { ScoringResults } from './results-schema.ts';

/**
 * Writes `results.json` (pretty JSON) and `leaderboard.md` into dir, each via a temp file and rename so a
 * reader never sees half a file. Returns both paths.
 */
export function writeResults(dir: string, results: ScoringResults): { results: string; leaderboard: string } {
  mkdirSync(dir, { recursive: true });
  const paths = { results: join(dir, 'results.json'), leaderboard: join(dir, 'leaderboard.md') };
  const write = (path: string, text: string) => {
    const tmp = `${path}.tmp-${process.pid}`;
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  };
  write(paths.results, `${JSON.stringify(results, null, 2)}\n`);
  write(paths.leaderboard, renderLeaderboard(results));
  return paths;
}
