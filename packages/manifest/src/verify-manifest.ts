import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize } from 'node:path';
import { AsofError, InputError, Manifest, zodInputError } from '@asof/schema';
import { computeDatasetId } from './build-manifest.ts';
import { hashFile } from './hash-file.ts';

export interface VerifyProblem {
  path: string;
  problem: 'missing' | 'sha256' | 'bytes' | 'dataset_id' | 'outside';
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
        .map(
          (p) =>
            `${p.path} ${p.problem}${p.expected !== undefined ? ` (expected ${p.expected}, got ${p.actual ?? 'nothing'})` : ''}`,
        )
        .join('; ')}\n  hint: the files changed since the build; rebuild or restore them`,
      { context: { manifest: manifestPath, problems } },
    );
  }
}

/** Reads and validates a manifest file. */
export function readManifest(path: string): Manifest {
  if (!existsSync(path)) {
    throw new InputError('MANIFEST_NOT_FOUND', `${path}: no such manifest (build one with 'asof build')`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (cause) {
    throw new InputError('MANIFEST_INVALID', `${path}: not JSON (${(cause as Error).message})`, { cause });
  }
  const parsed = Manifest.safeParse(raw);
  if (!parsed.success) throw zodInputError('MANIFEST_INVALID', path, parsed.error);
  return parsed.data;
}

/** Re-hashes every listed file and the dataset_id; returns the problems (empty when all is well). */
export async function checkManifest(
  path: string,
): Promise<{ manifest: Manifest; problems: VerifyProblem[] }> {
  const manifest = readManifest(path);
  const root = dirname(path);
  const problems: VerifyProblem[] = [];
  const expectedId = computeDatasetId(manifest);
  if (expectedId !== manifest.dataset_id) {
    problems.push({
      path: 'manifest',
      problem: 'dataset_id',
      expected: expectedId,
      actual: manifest.dataset_id,
    });
  }
  for (const out of manifest.outputs) {
    const rel = normalize(out.path);
    if (isAbsolute(rel) || rel.startsWith('..')) {
      problems.push({ path: out.path, problem: 'outside' });
      continue;
    }
    const file = join(root, rel);
    if (!existsSync(file)) {
      problems.push({ path: out.path, problem: 'missing' });
      continue;
    }
    const { sha256, bytes } = await hashFile(file);
    if (bytes !== out.bytes)
      problems.push({ path: out.path, problem: 'bytes', expected: out.bytes, actual: bytes });
    else if (sha256 !== out.sha256)
      problems.push({ path: out.path, problem: 'sha256', expected: out.sha256, actual: sha256 });
  }
  return { manifest, problems };
}

/** Like checkManifest, but throws ManifestVerifyError naming each mismatch. */
export async function verifyManifest(path: string): Promise<Manifest> {
  const { manifest, problems } = await checkManifest(path);
  if (problems.length) throw new ManifestVerifyError(path, problems);
  return manifest;
}
