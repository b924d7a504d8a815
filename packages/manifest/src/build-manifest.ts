import { renameSync, writeFileSync } from 'node:fs';
import type { Manifest } from '@asof/schema';
import { canonicalJson, sha256Hex } from './canonical-json.ts';

export type ManifestBody = Omit<Manifest, 'dataset_id'>;

/**
 * dataset_id names the data, config and tool versions, not the commit that built it: it is the sha256 of
 * the canonical body without dataset_id and without created_by.git_commit / git_dirty (SPEC §9), nor
 * created_by.pipeline_file (where the pipeline lay: the same pipeline from another folder builds the same data).
 */
export function computeDatasetId(body: ManifestBody | Manifest): string {
  const { dataset_id: _ignored, ...rest } = body as Manifest;
  const { git_commit: _c, git_dirty: _d, pipeline_file: _p, ...createdBy } = rest.created_by;
  return sha256Hex(canonicalJson({ ...rest, created_by: createdBy }));
}

export function finalizeManifest(body: ManifestBody): Manifest {
  return { ...body, dataset_id: computeDatasetId(body) } as Manifest;
}

/** What a command that derives files from a verified parent (a split, an export) knows itself. */
export interface DerivedManifestParts {
  /** Appended to the parent's name: `${parent.name}-${suffix}`. */
  suffix: string;
  kind: Manifest['kind'];
  duckdbVersion: string;
  /** Overrides of the tool version and git fields; otherwise the parent's version and no git state. */
  createdBy?: { asof_version: string; git_commit: string | null; git_dirty: boolean | null };
  config: Record<string, unknown>;
  inputs: Manifest['inputs'];
  outputs: Manifest['outputs'];
  warnings: Manifest['warnings'];
  summary: Manifest['summary'];
}

/**
 * The manifest of files derived from `parent`: names the parent's dataset_id, keeps its registry, hashes
 * the derivation's own config — one shape for every derived kind, so they cannot drift apart.
 */
export function finalizeDerivedManifest(parent: Manifest, parts: DerivedManifestParts): Manifest {
  return finalizeManifest({
    manifest_version: 1,
    name: `${parent.name}-${parts.suffix}`,
    kind: parts.kind,
    parent_dataset_id: parent.dataset_id,
    created_by: {
      asof_version: parts.createdBy?.asof_version ?? parent.created_by.asof_version,
      duckdb_version: parts.duckdbVersion,
      git_commit: parts.createdBy?.git_commit ?? null,
      git_dirty: parts.createdBy?.git_dirty ?? null,
    },
    config: parts.config,
    config_sha256: sha256Hex(canonicalJson(parts.config)),
    registry: parent.registry,
    inputs: parts.inputs,
    outputs: parts.outputs,
    warnings: parts.warnings,
    summary: parts.summary,
  });
}

/** Writes the canonical manifest bytes via a temp file and rename. */
export function writeManifest(path: string, manifest: Manifest): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, canonicalJson(manifest));
  renameSync(tmp, path);
}
