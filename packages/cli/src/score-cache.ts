import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import {
  isProcessAlive,
  isSameOrInside,
  parseStamp,
  resolveRealPath,
  stampText,
  stateDir,
} from '@asof/output';
import type { ScoreStore } from '@asof/scoring';

/**
 * Entries kept, most recently used first: a split takes two (its panel and its baselines; ~20 MB and ~100 MB
 * for the default universe's whole split).
 */
export const SCORE_CACHE_ENTRIES = 8;

const KEY = /^[0-9a-f]{64}$/;
const ENTRY = /^([0-9a-f]{64})\.entry$/;
const ACCEPTED = /^([0-9a-f]{64})\.file-[0-9a-f]{64}\.json$/;

/** The folder of the scorer's cache: `<state dir>/score-cache` (docs/decisions/0054). */
export function scoreCacheDir(): string {
  return join(stateDir(), 'score-cache');
}

interface EntryHeader {
  format: 1;
  key: string;
  sha256: string;
  bytes: number;
}

/**
 * What the scorer keeps between scores of a split (its panel as read, its own baselines, the files found equal
 * to them), under asof's output rules (docs/decisions/0010, 0054):
 * - one file per entry, `<key>.entry`: a JSON header line naming the key and the payload's sha256 and
 *   size, then the payload; read back only when the payload hashes to it (else it is a miss, and replaced);
 * - written whole into `tmp/<pid>-<start>-<random>` and renamed into place, so a reader sees the old entry
 *   or the new one, never half of one; the temp files of dead processes are removed when the store opens;
 * - only files of those names in its own folder are ever replaced or removed; at most SCORE_CACHE_ENTRIES
 *   entries are kept, the least recently used removed first;
 * - never inside a command's input: a store that would lie in one is not used (`disabledBecause`).
 * Every failure to read or write only costs the reuse: the scorer then reads the split and fits the baselines
 * itself.
 */
export class ScoreCacheStore implements ScoreStore {
  /** Why the store is not used (its folder lies in an input), or null. */
  readonly disabledBecause: string | null;
  private swept = false;

  constructor(
    readonly dir: string,
    inputs: readonly string[],
    private readonly log: (line: string) => void = () => {},
  ) {
    const real = resolveRealPath(dir);
    const input = inputs.find((p) => isSameOrInside(real, resolveRealPath(p)));
    this.disabledBecause = input ? `the score cache ${dir} lies in the input ${input}: not used` : null;
  }

  private entryPath(key: string): string {
    return join(this.dir, `${key}.entry`);
  }

  get(key: string): Uint8Array | null {
    if (this.disabledBecause || !KEY.test(key)) return null;
    const path = this.entryPath(key);
    let data: Buffer;
    try {
      data = readFileSync(path);
    } catch {
      return null;
    }
    const nl = data.indexOf(10);
    let header: EntryHeader | null = null;
    try {
      header = nl > 0 ? JSON.parse(data.subarray(0, nl).toString('utf8')) : null;
    } catch {
      header = null;
    }
    const payload = data.subarray(nl + 1);
    const sha = createHash('sha256').update(payload).digest('hex');
    if (!header || header.key !== key || header.bytes !== payload.length || header.sha256 !== sha) {
      this.log(`score cache entry ${path} failed its sha256 check: not used (made afresh and replaced)`);
      return null;
    }
    // Most recently used: kept longest when the store is pruned.
    const now = new Date();
    try {
      utimesSync(path, now, now);
    } catch {
      // A read-only store still serves its entries.
    }
    return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  }

  put(key: string, bytes: Uint8Array): void {
    if (this.disabledBecause || !KEY.test(key)) return;
    const header: EntryHeader = {
      format: 1,
      key,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      bytes: bytes.length,
    };
    this.writeAtomic(this.entryPath(key), [Buffer.from(`${JSON.stringify(header)}\n`), bytes]);
    this.prune();
  }

  acceptedFile(key: string, sha256: string): string[] | null {
    if (this.disabledBecause || !KEY.test(key) || !KEY.test(sha256)) return null;
    try {
      const entry = JSON.parse(readFileSync(join(this.dir, `${key}.file-${sha256}.json`), 'utf8'));
      const models = entry?.models;
      // Only beside its baselines entry: the file was found equal to those, not to others.
      statSync(this.entryPath(key));
      if (entry.key === key && entry.sha256 === sha256 && Array.isArray(models) && models.length)
        return models.map(String);
    } catch {
      // No record: the file is read and checked.
    }
    return null;
  }

  acceptFile(key: string, sha256: string, models: readonly string[]): void {
    if (this.disabledBecause || !KEY.test(key) || !KEY.test(sha256)) return;
    this.writeAtomic(join(this.dir, `${key}.file-${sha256}.json`), [
      Buffer.from(`${JSON.stringify({ key, sha256, models })}\n`),
    ]);
  }

  /** Writes `parts` into a temp file of this process in `<dir>/tmp/`, then renames it to `path`. */
  private writeAtomic(path: string, parts: readonly Uint8Array[]): void {
    const tmpDir = join(this.dir, 'tmp');
    const tmp = join(tmpDir, `${stampText()}-${randomBytes(6).toString('hex')}`);
    try {
      mkdirSync(tmpDir, { recursive: true });
      this.sweep(tmpDir);
      const fd = openSync(tmp, 'wx');
      try {
        for (const p of parts) writeFileSync(fd, p);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, path);
    } catch (err) {
      rmSync(tmp, { force: true });
      this.log(`could not write the score cache (${(err as Error).message}): not kept for the next score`);
    }
  }

  /** Removes the temp files of processes that are gone (killed mid-write). */
  private sweep(tmpDir: string): void {
    if (this.swept) return;
    this.swept = true;
    for (const name of readdirSync(tmpDir)) {
      const stamp = parseStamp(name);
      if (stamp && !isProcessAlive(stamp)) rmSync(join(tmpDir, name), { force: true });
    }
  }

  /** Keeps the SCORE_CACHE_ENTRIES most recently used entries, and the file records of those only. */
  private prune(): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    const entries = names
      .map((n) => ENTRY.exec(n)?.[1])
      .filter((k): k is string => k !== undefined)
      .map((key) => {
        try {
          return { key, at: statSync(this.entryPath(key)).mtimeMs };
        } catch {
          return { key, at: 0 };
        }
      })
      .sort((a, b) => b.at - a.at || (a.key < b.key ? -1 : 1));
    const kept = new Set(entries.slice(0, SCORE_CACHE_ENTRIES).map((e) => e.key));
    for (const e of entries.slice(SCORE_CACHE_ENTRIES)) rmSync(this.entryPath(e.key), { force: true });
    for (const n of names) {
      const key = ACCEPTED.exec(n)?.[1];
      if (key && !kept.has(key)) rmSync(join(this.dir, n), { force: true });
    }
  }
}
