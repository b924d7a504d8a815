import { existsSync, lstatSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, relative, sep } from 'node:path';
import { fileTypeWords, isInsideAsofTemp, NotRegularFileError, readRegularFile } from '@asof/output';
import { AsofError, InputError, Manifest, zodInputError } from '@asof/schema';
import { computeDatasetId } from './build-manifest.ts';
import { hashFile } from './hash-file.ts';

export interface VerifyProblem {
  path: string;
  problem:
    | 'missing'
    | 'sha256'
    | 'bytes'
    | 'dataset_id'
    | 'outside'
    | 'not a file'
    | 'not a regular file'
    | 'not listed'
    | 'changed while read';
  expected?: string | number;
  actual?: string | number;
}

export class ManifestVerifyError extends AsofError {
  constructor(
    readonly manifestPath: string,
    readonly problems: VerifyProblem[],
  ) {
    super(
      'MANIFEST_MISMATCH',
      `${manifestPath}: ${problems.length} problem(s): ${problems
        .map((p) =>
          p.problem === 'not a regular file'
            ? `${p.path} is not a regular file (it is ${p.actual})`
            : `${p.path} ${p.problem}${p.expected !== undefined ? ` (expected ${p.expected}, got ${p.actual ?? 'nothing'})` : ''}`,
        )
        .join(
          '; ',
        )}\n  hint: the files changed since asof wrote them; write them again (build, split, score…) or restore them`,
      { context: { manifest: manifestPath, problems } },
    );
  }
}

/** The bytes of a manifest file; a missing file or a folder is an InputError naming it. */
export function readManifestBytes(path: string, label: string = path): Buffer {
  if (!existsSync(path)) {
    throw new InputError('MANIFEST_NOT_FOUND', `${label}: no such manifest (build one with 'asof build')`, {
      context: { file: path },
    });
  }
  if (lstatSync(realpathSync(path)).isDirectory()) {
    throw new InputError(
      'MANIFEST_IS_FOLDER',
      `${label} is a folder; pass the manifest.json inside it, e.g. ${join(label, 'manifest.json')}`,
      { context: { file: path } },
    );
  }
  return readRegularFile(path, label);
}

/**
 * The problem of a listed path that is not a regular file: a folder is 'not a file' (as before); a FIFO,
 * socket or device is 'not a regular file', with what it is.
 */
export function notRegularProblem(path: string, what: string): VerifyProblem {
  return what === 'a folder'
    ? { path, problem: 'not a file' }
    : { path, problem: 'not a regular file', actual: what };
}

/** Parses and validates manifest bytes. */
export function parseManifestBytes(bytes: Buffer, label: string): Manifest {
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch (cause) {
    throw new InputError('MANIFEST_INVALID', `${label}: not JSON (${(cause as Error).message})`, {
      cause,
      context: { file: label },
    });
  }
  const parsed = Manifest.safeParse(raw);
  if (!parsed.success) throw zodInputError('MANIFEST_INVALID', label, parsed.error);
  return parsed.data;
}

/** A manifest inside an unfinished asof output (a store's tmp-… folder) is never a valid input. */
export function refuseTempManifest(label: string, realPath: string): void {
  if (!isInsideAsofTemp(realPath)) return;
  throw new InputError(
    'MANIFEST_IN_TEMP',
    `${label}: this manifest is inside an unfinished asof output (${dirname(realPath)}), never a valid input; use the output path the command printed`,
    { context: { file: label } },
  );
}

/** The dataset_id problem of a manifest whose body does not hash to its id (none when it does). */
export function datasetIdProblems(manifest: Manifest): VerifyProblem[] {
  const expected = computeDatasetId(manifest);
  return expected === manifest.dataset_id
    ? []
    : [{ path: 'manifest', problem: 'dataset_id', expected, actual: manifest.dataset_id }];
}

/** Reads and validates a manifest file. */
export function readManifest(path: string): Manifest {
  return parseManifestBytes(readManifestBytes(path), path);
}

/** Every file under `root` (relative, `/`-separated), not following symlinked folders. */
function filesUnder(root: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(root, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...filesUnder(root, rel));
    else out.push(rel);
  }
  return out;
}

/**
 * Re-hashes every listed file and the dataset_id; returns the problems (empty when all is well). A
 * manifest inside an unfinished asof output (a temp folder) is refused. With `unlisted`, files in the
 * manifest's folder that it does not list are problems too ('not listed'): readers never read them, but
 * `asof verify` names them.
 */
export async function checkManifest(
  path: string,
  options: { unlisted?: boolean } = {},
): Promise<{ manifest: Manifest; problems: VerifyProblem[] }> {
  if (existsSync(path)) refuseTempManifest(path, realpathSync(path));
  const manifest = readManifest(path);
  const root = dirname(realpathSync(path));
  const problems: VerifyProblem[] = datasetIdProblems(manifest);
  const listed = new Set<string>();
  for (const out of manifest.outputs) {
    const rel = normalize(out.path);
    if (isAbsolute(rel) || rel.startsWith('..')) {
      problems.push({ path: out.path, problem: 'outside' });
      continue;
    }
    listed.add(rel.split(sep).join('/'));
    const file = join(root, rel);
    if (!existsSync(file)) {
      problems.push({ path: out.path, problem: 'missing' });
      continue;
    }
    const st = lstatSync(file);
    if (!st.isFile()) {
      problems.push(
        st.isSymbolicLink()
          ? { path: out.path, problem: 'not a file' }
          : notRegularProblem(out.path, fileTypeWords(st)),
      );
      continue;
    }
    let hashed: { sha256: string; bytes: number };
    try {
      hashed = await hashFile(file);
    } catch (err) {
      // Replaced by a FIFO or a device between the lstat and the open.
      if (!(err instanceof NotRegularFileError)) throw err;
      problems.push(notRegularProblem(out.path, err.what));
      continue;
    }
    const { sha256, bytes } = hashed;
    if (bytes !== out.bytes)
      problems.push({ path: out.path, problem: 'bytes', expected: out.bytes, actual: bytes });
    else if (sha256 !== out.sha256)
      problems.push({ path: out.path, problem: 'sha256', expected: out.sha256, actual: sha256 });
  }
  if (options.unlisted) {
    const self = relative(root, realpathSync(path)).split(sep).join('/');
    for (const f of filesUnder(root)) {
      if (f !== self && !listed.has(f)) problems.push({ path: f, problem: 'not listed' });
    }
  }
  return { manifest, problems };
}

/** Like checkManifest, but throws ManifestVerifyError naming each mismatch. */
export async function verifyManifest(path: string): Promise<Manifest> {
  const { manifest, problems } = await checkManifest(path);
  if (problems.length) throw new ManifestVerifyError(path, problems);
  return manifest;
}
