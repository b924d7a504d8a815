import { closeSync, existsSync, fstatSync, realpathSync, type Stats, statSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize } from 'node:path';
import { NotRegularFileError, openRegularFile } from '@asof/output';
import { InputError, type Manifest, type ManifestOutput } from '@asof/schema';
import { sha256Hex } from './canonical-json.ts';
import { hashDescriptor } from './hash-file.ts';
import {
  datasetIdProblems,
  ManifestVerifyError,
  notRegularProblem,
  parseManifestBytes,
  readManifestBytes,
  refuseTempManifest,
  type VerifyProblem,
} from './verify-manifest.ts';

/** One listed file, open and checked. */
export interface VerifiedFile {
  output: ManifestOutput;
  /** Where the file is (for messages). */
  path: string;
  /**
   * The path to read it by: `/proc/self/fd/<n>` of the descriptor that was hashed (Linux), so a reader —
   * DuckDB or JavaScript — reads the very bytes that were checked even if the folder is rebuilt meanwhile;
   * elsewhere the file's real path (then `recheck()` tells a replaced file by its inode).
   */
  readPath: string;
}

interface Held {
  file: VerifiedFile;
  fd: number;
  stat: Stats;
}

const PROC_FD = existsSync('/proc/self/fd');

/** Same inode, size and mtime: what an in-place write changes. */
function sameContentStat(a: Stats, b: Stats): boolean {
  return a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/**
 * A manifest whose listed files were all hashed and found as listed, held open (SPEC §9: never serve
 * unverified data). Readers take exactly these files, through `readPath`, and call `recheck()` once they
 * are done reading: a file written to in place meanwhile (size, mtime or ctime changed) is refused.
 * Unlisted files in the folder are never seen. `close()` releases the descriptors.
 */
export class VerifiedManifest {
  private constructor(
    readonly manifest: Manifest,
    /** The manifest's real path (symlinks resolved) and its folder. */
    readonly path: string,
    readonly dir: string,
    /** The manifest's bytes as read and verified, and their sha256 (for a derived manifest's inputs). */
    readonly bytes: Buffer,
    readonly sha256: string,
    private readonly held: Held[],
    /** The path as the caller gave it (for messages: the real path may be inside a generation folder). */
    readonly label: string,
  ) {}

  /**
   * Opens and verifies `path`. Refuses a manifest inside an unfinished output (an asof temp folder), a
   * listed path outside the folder or that is not a regular file, and any size or sha256 mismatch.
   */
  static async open(path: string, options: { label?: string } = {}): Promise<VerifiedManifest> {
    const label = options.label ?? path;
    if (!existsSync(path)) {
      throw new InputError('MANIFEST_NOT_FOUND', `${label}: no such manifest (build one with 'asof build')`, {
        context: { file: path },
      });
    }
    const real = realpathSync(path);
    refuseTempManifest(label, real);
    const bytes = readManifestBytes(real, label);
    const manifest = parseManifestBytes(bytes, label);
    const dir = dirname(real);
    const problems: VerifyProblem[] = datasetIdProblems(manifest);
    const held: Held[] = [];
    try {
      for (const out of manifest.outputs) {
        const rel = normalize(out.path);
        if (isAbsolute(rel) || rel.startsWith('..')) {
          problems.push({ path: out.path, problem: 'outside' });
          continue;
        }
        const file = join(dir, rel);
        let fd: number;
        let stat: Stats;
        try {
          // Never a plain open(2): a FIFO in place of a listed file would block it forever (audit 2.12).
          ({ fd, stat } = openRegularFile(file));
        } catch (err) {
          if (err instanceof NotRegularFileError) problems.push(notRegularProblem(out.path, err.what));
          else problems.push({ path: out.path, problem: 'missing' });
          continue;
        }
        held.push({
          file: { output: out, path: file, readPath: PROC_FD ? `/proc/self/fd/${fd}` : file },
          fd,
          stat,
        });
        const { sha256, bytes: size } = await hashDescriptor(fd);
        if (size !== out.bytes)
          problems.push({ path: out.path, problem: 'bytes', expected: out.bytes, actual: size });
        else if (sha256 !== out.sha256)
          problems.push({ path: out.path, problem: 'sha256', expected: out.sha256, actual: sha256 });
        else if (!sameContentStat(stat, fstatSync(fd)))
          problems.push({ path: out.path, problem: 'changed while read' });
      }
    } catch (err) {
      for (const h of held) closeSync(h.fd);
      throw err;
    }
    if (problems.length) {
      for (const h of held) closeSync(h.fd);
      throw new ManifestVerifyError(label, problems);
    }
    return new VerifiedManifest(manifest, real, dir, bytes, sha256Hex(bytes), held, label);
  }

  /** The verified files of the given tables (all files when none is given), in manifest order. */
  files(...tables: string[]): VerifiedFile[] {
    return this.held
      .filter((h) => tables.length === 0 || tables.includes(h.file.output.table))
      .map((h) => h.file);
  }

  /** The read paths of the given tables' files. */
  readPaths(...tables: string[]): string[] {
    return this.files(...tables).map((f) => f.readPath);
  }

  has(table: string): boolean {
    return this.held.some((h) => h.file.output.table === table);
  }

  /**
   * Throws ManifestVerifyError when a verified file was changed in place since it was hashed (or, without
   * /proc, replaced at its path). Call it after reading and before publishing anything derived. Size and
   * mtime are compared; a changed ctime alone (a rebuild unlinking the old file changes it too) makes it
   * hash the descriptor again.
   */
  async recheck(): Promise<void> {
    const problems: VerifyProblem[] = [];
    for (const h of this.held) {
      const changed = { path: h.file.output.path, problem: 'changed while read' } as const;
      let now: Stats;
      try {
        now = PROC_FD ? fstatSync(h.fd) : statSync(h.file.path);
      } catch {
        problems.push(changed);
        continue;
      }
      if (!sameContentStat(h.stat, now)) problems.push(changed);
      else if (now.ctimeMs !== h.stat.ctimeMs) {
        const { sha256 } = await hashDescriptor(h.fd);
        if (sha256 !== h.file.output.sha256) problems.push(changed);
      }
    }
    if (problems.length) throw new ManifestVerifyError(this.label, problems);
  }

  /**
   * Runs `read`; if it fails, first asks whether a verified file changed under it (a reader choking on a
   * file rewritten in place should report the change, not a decoding error).
   */
  async guard<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (err) {
      await this.recheck();
      throw err;
    }
  }

  close(): void {
    for (const h of this.held.splice(0)) closeSync(h.fd);
  }
}

/** Opens and verifies a manifest (see VerifiedManifest.open). */
export function openVerifiedManifest(
  path: string,
  options: { label?: string } = {},
): Promise<VerifiedManifest> {
  return VerifiedManifest.open(path, options);
}

/**
 * Opens and verifies a manifest, runs `read` on it, re-checks that nothing it read changed meanwhile, and
 * closes it: the one way a command that only reads a dataset should read it.
 */
export async function withVerifiedManifest<T>(
  path: string,
  read: (verified: VerifiedManifest) => Promise<T>,
  options: { label?: string } = {},
): Promise<T> {
  const verified = await openVerifiedManifest(path, options);
  try {
    const value = await verified.guard(() => read(verified));
    await verified.recheck();
    return value;
  } finally {
    verified.close();
  }
}
