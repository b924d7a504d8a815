import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, finalizeManifest, manifestOutput, sha256Hex, writeManifest } from '@asof/manifest';
import type { Manifest, ManifestOutput } from '@asof/schema';

type Row = Record<string, unknown>;

const T = (day: string) => `${day}T21:00:00.000000Z`;

/** A question row with the README's fields; the scorer reads a few of them, the rest keep the shape honest. */
function question(
  id: string,
  family: 'VAL' | 'RANK' | 'EVT' | 'FUND',
  window: 'T1' | 'T2' | 'T3',
  cluster: string,
  params: Row,
  subjects: string[] = ['syn:px:EQ0001:close'],
): Row {
  const scorer = { VAL: 'error_reduction', RANK: 'spearman_topk', EVT: 'brier', FUND: 'truncated_utility' }[
    family
  ];
  const answerType = { VAL: 'number', RANK: 'ranking', EVT: 'probability', FUND: 'number' }[family];
  return {
    instance_id: id,
    family,
    t: window === 'T1' ? T('2020-06-01') : T('2023-06-01'),
    window,
    resolves_at: window === 'T3' ? null : window === 'T1' ? T('2020-07-01') : T('2023-07-01'),
    question: `hand-made ${family} question ${id}`,
    answer_type: answerType,
    resolution_rule: 'first_release',
    scorer,
    scorer_params: params,
    cluster_id: cluster,
    subjects,
    target: window === 'T1' ? '2020-07-01' : '2023-07-01',
    horizon: family === 'FUND' ? null : 21,
    reference_value: (params.reference as number | undefined) ?? null,
    inputs: subjects,
  };
}

function resolution(id: string, value: number | null, ranking: string[] | null = null): Row {
  return {
    instance_id: id,
    status: 'resolved',
    value,
    ranking,
    returns: null,
    first_release_at: T('2020-07-01'),
    latest_value: value,
    latest_ranking: ranking,
    moved: false,
    flipped: null,
  };
}

const open = (id: string): Row => ({
  instance_id: id,
  status: 'open',
  value: null,
  ranking: null,
  returns: null,
  first_release_at: null,
  latest_value: null,
  latest_ranking: null,
  moved: null,
  flipped: null,
});

const RANKED = ['s:a', 's:b', 's:c'];

/**
 * The hand-made questions of the scorer's tests (values worked by hand in
 * packages/questions/src/score-questions.test.ts): 5 VAL (2 T1, 2 T2, 1 T3), 2 RANK, 4 EVT (1 T3), 2 FUND.
 */
export const QUESTIONS_FIXTURE = {
  questions: [
    question('v1', 'VAL', 'T1', 'A', { reference: 100 }),
    question('v2', 'VAL', 'T1', 'B', { reference: 50 }),
    question('v3', 'VAL', 'T2', 'A', { reference: 100 }),
    question('v4', 'VAL', 'T2', 'C', { reference: 200 }),
    question('v5', 'VAL', 'T3', 'A', { reference: 100 }),
    question('r1', 'RANK', 'T1', 'D', { k: 1 }, RANKED),
    question('r2', 'RANK', 'T2', 'E', { k: 1 }, RANKED),
    question('e1', 'EVT', 'T1', 'F', {}),
    question('e2', 'EVT', 'T2', 'G', {}),
    question('e3', 'EVT', 'T2', 'H', {}),
    question('e4', 'EVT', 'T3', 'H', {}),
    question('f1', 'FUND', 'T1', 'I', { scale: 4 }),
    question('f2', 'FUND', 'T2', 'I', { scale: 4 }),
  ],
  resolutions: [
    resolution('v1', 110),
    resolution('v2', 40),
    resolution('v3', 120),
    resolution('v4', 200),
    open('v5'),
    resolution('r1', null, ['s:a', 's:b', 's:c']),
    resolution('r2', null, ['s:c', 's:b', 's:a']),
    resolution('e1', 1),
    resolution('e2', 0),
    resolution('e3', 1),
    open('e4'),
    resolution('f1', 10),
    resolution('f2', 12),
  ],
  baselines: [
    ...[
      ['v1', 100],
      ['v2', 50],
      ['v3', 100],
      ['v4', 200],
      ['v5', 100],
      ['f1', 8],
      ['f2', 10],
    ].map(([id, answer]) => ({ model: 'last_value', instance_id: id, answer })),
    ...[
      ['e1', 0.5],
      ['e2', 0.4],
      ['e3', 0.4],
      ['e4', 0.4],
    ].map(([id, answer]) => ({ model: 'base_rate', instance_id: id, answer })),
    ...['e1', 'e2', 'e3', 'e4'].map((id) => ({ model: 'coin_flip', instance_id: id, answer: 0.5 })),
    ...['r1', 'r2'].map((id) => ({ model: 'momentum', instance_id: id, answer: ['s:b', 's:a', 's:c'] })),
  ],
};

/** The answers of the fixture's test model `m1` (CSV, file name m1.csv): partial on VAL T2, one T3 answer. */
export const QUESTIONS_FIXTURE_ANSWERS_CSV = [
  'instance_id,answer',
  'v1,105',
  'v2,45',
  'v3,110',
  'v5,101',
  'r1,s:a;s:b;s:c',
  'r2,s:a;s:b;s:c',
  'e1,0.8',
  'e2,0.3',
  'e3,0.6',
  'f1,11',
  'f2,20',
  '',
].join('\n');

const sortKey = (r: Row) => `${r.model ?? ''}\u0000${r.instance_id}`;

/**
 * Writes a questions folder (packages/questions/README.md: questions.jsonl, resolutions.jsonl,
 * baselines.jsonl and a manifest of kind 'questions') from the given rows, by default QUESTIONS_FIXTURE.
 */
export async function writeQuestionsFixture(
  dir: string,
  rows: { questions: Row[]; resolutions: Row[]; baselines: Row[] } = QUESTIONS_FIXTURE,
  options: { kind?: string } = {},
): Promise<Manifest> {
  mkdirSync(dir, { recursive: true });
  const files = [
    { path: 'questions.jsonl', table: 'questions', rows: rows.questions },
    { path: 'resolutions.jsonl', table: 'resolutions', rows: rows.resolutions },
    { path: 'baselines.jsonl', table: 'question_baselines', rows: rows.baselines },
  ];
  const outputs: ManifestOutput[] = [];
  for (const f of files) {
    const sorted = [...f.rows].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1));
    writeFileSync(join(dir, f.path), sorted.map((r) => `${JSON.stringify(r)}\n`).join(''));
    outputs.push(
      await manifestOutput(dir, {
        path: f.path,
        table: f.table,
        rows: sorted.length,
        columns: Object.keys(sorted[0] ?? {}).map((k) => `${k}:json`),
        min_timestamp: null,
        max_timestamp: null,
        min_available_at: null,
        max_available_at: null,
      }),
    );
  }
  const config = { model_cutoff: '2021-12-31', run_date: '2025-12-31', seed: 0, fixture: true };
  const manifest = finalizeManifest({
    manifest_version: 1,
    name: 'fixture-questions',
    kind: options.kind ?? 'questions',
    parent_dataset_id: 'a'.repeat(64),
    created_by: { asof_version: '0.0.0-test', duckdb_version: 'none', git_commit: null, git_dirty: null },
    config,
    config_sha256: sha256Hex(canonicalJson(config)),
    registry: [],
    inputs: [],
    outputs,
    warnings: [],
    summary: {},
  });
  writeManifest(join(dir, 'manifest.json'), manifest);
  return manifest;
}
