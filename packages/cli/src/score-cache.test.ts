import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCORE_CACHE_ENTRIES, ScoreCacheStore } from './score-cache.ts';

const root = mkdtempSync(join(tmpdir(), 'asof-score-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const key = (c: string) => c.repeat(64);
const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);

describe('ScoreCacheStore (issue 51 item 5)', () => {
  it('gives back what it stored, and nothing for a key it never stored', () => {
    const store = new ScoreCacheStore(join(root, 'a'), []);
    expect(store.get(key('1'))).toBeNull();
    store.put(key('1'), bytes(1000, 7));
    expect(Array.from(store.get(key('1'))!)).toEqual(Array.from(bytes(1000, 7)));
    // Keys are sha256 hex: anything else is never a file name.
    store.put('../x', bytes(3, 1));
    expect(existsSync(join(root, 'x'))).toBe(false);
    expect(store.get('../x')).toBeNull();
  });

  it('refuses an entry whose payload no longer hashes to its header (a miss, then replaced)', () => {
    const lines: string[] = [];
    const dir = join(root, 'b');
    const store = new ScoreCacheStore(dir, [], (l) => lines.push(l));
    store.put(key('2'), bytes(64, 9));
    const file = join(dir, `${key('2')}.entry`);
    const data = readFileSync(file);
    data[data.length - 1] ^= 1;
    writeFileSync(file, data);
    expect(store.get(key('2'))).toBeNull();
    expect(lines.join('\n')).toMatch(/failed its sha256 check: not used/);
    store.put(key('2'), bytes(64, 9));
    expect(store.get(key('2'))).not.toBeNull();
  });

  it('remembers files found equal to the baselines, only beside their entry', () => {
    const store = new ScoreCacheStore(join(root, 'c'), []);
    const sha = key('f');
    store.acceptFile(key('3'), sha, ['random_walk', 'arima']);
    expect(store.acceptedFile(key('3'), sha)).toBeNull();
    store.put(key('3'), bytes(8, 1));
    expect(store.acceptedFile(key('3'), sha)).toEqual(['random_walk', 'arima']);
    expect(store.acceptedFile(key('4'), sha)).toBeNull();
  });

  it(`keeps the ${SCORE_CACHE_ENTRIES} most recently used entries, with their file records`, () => {
    const dir = join(root, 'd');
    const store = new ScoreCacheStore(dir, []);
    const keys = Array.from({ length: SCORE_CACHE_ENTRIES }, (_, i) => key(String(i)));
    keys.forEach((k, i) => {
      store.put(k, bytes(8, i));
      store.acceptFile(k, key('e'), ['drift']);
      const t = new Date(Date.UTC(2020, 0, 1 + i));
      utimesSync(join(dir, `${k}.entry`), t, t);
    });
    // Reading the oldest makes it the most recent; the next write then drops the second oldest.
    expect(store.get(keys[0])).not.toBeNull();
    store.put(key('a'), bytes(8, 1));
    const left = readdirSync(dir).filter((n) => n.endsWith('.entry'));
    expect(left.length).toBe(SCORE_CACHE_ENTRIES);
    expect(left).toContain(`${keys[0]}.entry`);
    expect(left).not.toContain(`${keys[1]}.entry`);
    expect(existsSync(join(dir, `${keys[1]}.file-${key('e')}.json`))).toBe(false);
    expect(existsSync(join(dir, `${keys[0]}.file-${key('e')}.json`))).toBe(true);
  });

  it('removes temp files of dead processes, never a live one’s or anything not its own', () => {
    const dir = join(root, 'e');
    mkdirSync(join(dir, 'tmp'), { recursive: true });
    // A process that has exited: its pid with a start time that cannot be its.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }).stdout;
    writeFileSync(join(dir, 'tmp', `${dead}-1-abc`), 'half');
    writeFileSync(join(dir, 'tmp', 'notes.txt'), 'mine');
    writeFileSync(join(dir, 'user-file'), 'keep');
    new ScoreCacheStore(dir, []).put(key('b'), bytes(8, 2));
    expect(readdirSync(join(dir, 'tmp')).sort()).toEqual(['notes.txt']);
    expect(readFileSync(join(dir, 'user-file'), 'utf8')).toBe('keep');
  });

  it('is not used when it would lie inside an input of the command', () => {
    const input = join(root, 'split');
    const lines: string[] = [];
    const store = new ScoreCacheStore(join(input, '.state', 'score-cache'), [input], (l) => lines.push(l));
    expect(store.disabledBecause).toMatch(/lies in the input/);
    store.put(key('c'), bytes(8, 3));
    expect(store.get(key('c'))).toBeNull();
    expect(existsSync(join(input, '.state'))).toBe(false);
  });
});
