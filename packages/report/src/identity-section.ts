import type { Manifest } from '@asof/schema';
import type { Block, Section } from './render-report-html.ts';

/** dataset_id, config hash, creator, config, inputs and outputs of a manifest. */
export function identitySection(manifest: Manifest, manifestPath: string): Section {
  const bySource = new Map<string, { files: number; bytes: number }>();
  for (const i of manifest.inputs) {
    const s = bySource.get(i.source) ?? { files: 0, bytes: 0 };
    s.files += 1;
    s.bytes += i.bytes;
    bySource.set(i.source, s);
  }
  const blocks: Block[] = [
    {
      kind: 'table',
      columns: ['field', 'value'],
      rows: [
        ['manifest', manifestPath],
        ['name', manifest.name],
        ['kind', manifest.kind],
        ['dataset_id', manifest.dataset_id],
        ['parent_dataset_id', manifest.parent_dataset_id ?? '–'],
        ['config_sha256', manifest.config_sha256],
        ['asof version', manifest.created_by.asof_version],
        ['DuckDB', manifest.created_by.duckdb_version],
        [
          'git',
          manifest.created_by.git_commit
            ? `${manifest.created_by.git_commit}${manifest.created_by.git_dirty ? ' (dirty)' : ''}`
            : '–',
        ],
        ['registry', manifest.registry.map((r) => `${r.name} ${r.sha256.slice(0, 12)}`).join(', ') || '–'],
      ],
    },
    {
      kind: 'table',
      caption: `Inputs: ${manifest.inputs.length} file(s)`,
      columns: ['source', 'files', 'bytes'],
      rows: [...bySource.entries()].map(([s, v]) => [s, v.files, v.bytes]),
    },
  ];
  if (manifest.inputs.length) {
    blocks.push({
      kind: 'details',
      summary: 'every input (source, key, sha256, bytes)',
      blocks: [
        {
          kind: 'table',
          columns: ['source', 'key', 'sha256', 'bytes'],
          rows: manifest.inputs.map((i) => [i.source, i.key, i.sha256, i.bytes]),
        },
      ],
    });
  }
  blocks.push(
    {
      kind: 'table',
      caption: `Outputs: ${manifest.outputs.length} file(s), each verified against its sha256 before this report read it`,
      columns: ['path', 'table', 'rows', 'bytes', 'sha256'],
      rows: manifest.outputs.map((o) => [o.path, o.table, o.rows, o.bytes, o.sha256.slice(0, 16)]),
    },
    {
      kind: 'details',
      summary: 'resolved config',
      blocks: [{ kind: 'code', text: JSON.stringify(manifest.config, null, 2) }],
    },
  );
  return { id: 'identity', title: 'Dataset', blocks };
}
