import { createHash } from 'node:crypto';
import { closeSync, readSync, realpathSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { openRegularFile, readAsofParquetMetadata } from '@asof/output';
import { zodInputError } from '@asof/schema';
import { RunRecord } from '@asof/scoring';

/** A file the model command names, hashed when the run starts. */
export interface CommandFile {
  path: string;
  sha256: string;
  bytes: number;
}

function hashPath(path: string): { sha256: string; bytes: number } {
  const hash = createHash('sha256');
  const { fd } = openRegularFile(path);
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    let bytes = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
      bytes += n;
    }
    return { sha256: hash.digest('hex'), bytes };
  } finally {
    closeSync(fd);
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The program as exec would find it: a path as given, else the first PATH entry that has it. */
function programPath(word: string, cwd: string, env: NodeJS.ProcessEnv): string | null {
  if (word.includes('/')) return isFile(resolve(cwd, word)) ? resolve(cwd, word) : null;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(isAbsolute(dir) ? dir : resolve(cwd, dir), word);
    if (isFile(candidate)) return candidate;
  }
  return null;
}

/**
 * The sha256 of every file the model command names that exists: the program (found on PATH like exec
 * does, recorded by its real path) and each argument that is a path to a regular file (relative to the
 * working directory, recorded as written). Folders and words that are not files are not hashed.
 */
export function hashCommandFiles(
  argv: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): CommandFile[] {
  const out: CommandFile[] = [];
  const seen = new Set<string>();
  const add = (shownPath: string, real: string) => {
    if (seen.has(real)) return;
    seen.add(real);
    out.push({ path: shownPath, ...hashPath(real) });
  };
  const program = programPath(argv[0], cwd, env);
  if (program) {
    const real = realpathSync(program);
    add(argv[0].includes('/') ? argv[0] : real, real);
  }
  for (const word of argv.slice(1)) {
    const abs = resolve(cwd, word);
    if (isFile(abs)) add(word, realpathSync(abs));
  }
  return out;
}

/**
 * The run records in forecasts files written by `asof run` (their Parquet footer's asof entry), for the
 * scorer to carry into results.json. Files without one (CSV, asof baselines, other writers) have none; a
 * record that does not parse is refused, naming the file.
 */
export function readRunRecords(paths: readonly string[]): RunRecord[] {
  const out: RunRecord[] = [];
  for (const path of paths) {
    const meta = readAsofParquetMetadata(path);
    if (meta?.kind !== 'forecasts' || meta.run === undefined) continue;
    const parsed = RunRecord.safeParse(meta.run);
    if (!parsed.success) {
      throw zodInputError('RUN_RECORD_INVALID', path, parsed.error, {
        what: 'asof run record',
        hint: "rewrite the file with 'asof run'",
      });
    }
    out.push(parsed.data);
  }
  return out;
}
