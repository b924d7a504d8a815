import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isProcessAlive, parseStamp, stampText } from '@asof/output';

/** One index entry: which stored body answers a request. Never holds secrets (the key and url are stripped). */
export interface CacheEntry {
  key: string;
  sha256: string;
  bytes: number;
  status: number;
  content_type: string | null;
  url: string;
  fetched_at: string;
}

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Writes `data` to `path` by a temp file in `<cache>/tmp/` (named after this process's stamp) and a rename.
 * A process killed mid-write leaves its temp file there, never beside the objects; the next cache that
 * writes removes the temp files of dead processes (sweepDeadTemps).
 */
async function writeAtomic(tmpDir: string, path: string, data: Uint8Array | string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await mkdir(tmpDir, { recursive: true });
  const tmp = join(tmpDir, `${stampText()}-${randomBytes(6).toString('hex')}`);
  try {
    await writeFile(tmp, data);
    await rename(tmp, path);
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    throw error;
  }
}

/**
 * Content-addressed store of raw (decompressed) response bodies:
 *   <dir>/objects/<sha[0..2]>/<sha>        the body
 *   <dir>/index/<keysha[0..2]>/<keysha>.json  one CacheEntry per request key
 * Both are written via temp file + rename, so a killed run leaves either the old state or the new one and a
 * re-run resumes where it stopped. The body is written before its index entry, so an entry never points to a
 * missing object; an entry whose object is missing or does not hash to its sha256 is treated as a miss.
 */
export class ResponseCache {
  private swept = false;
  constructor(readonly dir: string) {}

  private async tmpDir(): Promise<string> {
    const dir = join(this.dir, 'tmp');
    if (!this.swept) {
      this.swept = true;
      let names: string[] = [];
      try {
        names = await readdir(dir);
      } catch {
        // No temp folder yet.
      }
      for (const name of names) {
        const stamp = parseStamp(name);
        if (stamp && !isProcessAlive(stamp)) await unlink(join(dir, name)).catch(() => undefined);
      }
    }
    return dir;
  }

  private indexPath(key: string): string {
    const h = sha256Hex(key);
    return join(this.dir, 'index', h.slice(0, 2), `${h}.json`);
  }

  private objectPath(sha: string): string {
    return join(this.dir, 'objects', sha.slice(0, 2), sha);
  }

  async get(key: string): Promise<{ entry: CacheEntry; body: Buffer } | undefined> {
    let entry: CacheEntry;
    try {
      entry = JSON.parse(await readFile(this.indexPath(key), 'utf8')) as CacheEntry;
    } catch {
      return undefined;
    }
    if (entry.key !== key || typeof entry.sha256 !== 'string') return undefined;
    let body: Buffer;
    try {
      body = await readFile(this.objectPath(entry.sha256));
    } catch {
      return undefined;
    }
    if (sha256Hex(body) !== entry.sha256) return undefined;
    return { entry, body };
  }

  async put(
    entry: Omit<CacheEntry, 'sha256' | 'bytes' | 'fetched_at'>,
    body: Uint8Array,
  ): Promise<CacheEntry> {
    const sha = sha256Hex(body);
    const objectPath = this.objectPath(sha);
    const existing = await stat(objectPath).catch(() => undefined);
    if (existing?.size !== body.byteLength) await writeAtomic(await this.tmpDir(), objectPath, body);
    const full: CacheEntry = {
      ...entry,
      sha256: sha,
      bytes: body.byteLength,
      fetched_at: new Date().toISOString(),
    };
    await writeAtomic(await this.tmpDir(), this.indexPath(entry.key), `${JSON.stringify(full)}\n`);
    return full;
  }
}
