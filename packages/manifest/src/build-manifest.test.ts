import type { Manifest } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { computeDatasetId, finalizeDerivedManifest, finalizeManifest } from './build-manifest.ts';
import { canonicalJson, sha256Hex } from './canonical-json.ts';

const parent = finalizeManifest({
  manifest_version: 1,
  name: 'u',
  kind: 'universe',
  parent_dataset_id: null,
  created_by: { asof_version: '0.1.0', duckdb_version: 'v1', git_commit: 'abc', git_dirty: false },
  config: { a: 1 },
  config_sha256: sha256Hex(canonicalJson({ a: 1 })),
  registry: [{ name: 'units.tsv', sha256: 'f'.repeat(64), bytes: 3 }],
  inputs: [],
  outputs: [],
  warnings: [],
  summary: {},
} as unknown as Omit<Manifest, 'dataset_id'>);

describe('finalizeDerivedManifest', () => {
  it('names the parent, keeps its registry and hashes its own config', () => {
    const config = { embargo: '0', layout: 'per_origin' };
    const m = finalizeDerivedManifest(parent, {
      suffix: 'split',
      kind: 'split',
      duckdbVersion: 'v2',
      config,
      inputs: [],
      outputs: [],
      warnings: [],
      summary: { origins: 3 },
    });
    expect(m.name).toBe('u-split');
    expect(m.parent_dataset_id).toBe(parent.dataset_id);
    expect(m.registry).toEqual(parent.registry);
    expect(m.config_sha256).toBe(sha256Hex(canonicalJson(config)));
    // Without overrides: the parent's tool version, this run's DuckDB, no git state.
    expect(m.created_by).toEqual({
      asof_version: '0.1.0',
      duckdb_version: 'v2',
      git_commit: null,
      git_dirty: null,
    });
    expect(m.dataset_id).toBe(computeDatasetId(m));
  });
});

describe('computeDatasetId', () => {
  it('ignores where the pipeline lay (created_by.pipeline_file), as it ignores the commit, not the tool', () => {
    const { dataset_id: _id, ...body } = parent;
    const moved = { ...body, created_by: { ...body.created_by, pipeline_file: '../pipelines/x.json' } };
    expect(computeDatasetId(moved)).toBe(parent.dataset_id);
    const otherTool = { ...body, created_by: { ...body.created_by, asof_version: '0.2.0' } };
    expect(computeDatasetId(otherTool)).not.toBe(parent.dataset_id);
  });
});
