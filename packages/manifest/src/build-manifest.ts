import { renameSync, writeFileSync } from 'node:fs';
import type { Manifest } from '@asof/schema';
import { canonicalJson, sha256Hex } from './canonical-json.ts';

export type ManifestBody = Omit<Manifest, 'dataset_id'>;

/**
 * dataset_id names the data, config and tool versions, not the commit that built it: it is the sha256 of
 * the canonical body without dataset_id and without created_by.git_commit / git_dirty (SPEC §9).
 */
export function computeDatasetId(body: ManifestBody | Manifest): string {
  const { dataset_id: _ignored, ...rest } = body as Manifest;
  const { git_commit: _c, git_dirty: _d, ...createdBy } = rest.created_by;
  return sha256Hex(canonicalJson({ ...rest, created_by: createdBy }));
}

export function finalizeManifest(body: ManifestBody): Manifest {
  return { ...body, dataset_id: computeDatasetId(body) } as Manifest;
}

/** Writes the canonical manifest bytes via a temp file and rename. */
export function writeManifest(path: string, manifest: Manifest): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, canonicalJson(manifest));
  renameSync(tmp, path);
}
