import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIGINT, type Duck, listValue, loadQuery, quoteLiteral, VARCHAR } from '@asof/duck';
import { canonicalJson, manifestOutput } from '@asof/manifest';
import type { ManifestOutput } from '@asof/schema';
import type { Instance } from './build-instances.ts';
import { SQL_DIR } from './load-question-data.ts';

/** Column types of each table's Parquet file, read from its JSONL twin (read_json with these columns). */
const COLUMNS: Record<string, Record<string, string>> = {
  questions: {
    instance_id: 'VARCHAR',
    family: 'VARCHAR',
    t: 'TIMESTAMPTZ',
    window: 'VARCHAR',
    resolves_at: 'TIMESTAMPTZ',
    question: 'VARCHAR',
    answer_type: 'VARCHAR',
    resolution_rule: 'VARCHAR',
    scorer: 'VARCHAR',
    scorer_params: 'JSON',
    cluster_id: 'VARCHAR',
    subjects: 'VARCHAR[]',
    target: 'VARCHAR',
    horizon: 'INTEGER',
    reference_value: 'DOUBLE',
    reference_at: 'TIMESTAMPTZ',
    inputs: 'VARCHAR[]',
  },
  resolutions: {
    instance_id: 'VARCHAR',
    status: 'VARCHAR',
    value: 'DOUBLE',
    ranking: 'VARCHAR[]',
    returns: 'JSON',
    first_release_at: 'TIMESTAMPTZ',
    latest_value: 'DOUBLE',
    latest_ranking: 'VARCHAR[]',
    moved: 'BOOLEAN',
    flipped: 'BOOLEAN',
    revision_note: 'VARCHAR',
  },
  baselines: { model: 'VARCHAR', instance_id: 'VARCHAR', answer: 'JSON' },
};

const TABLE_OF: Record<string, string> = {
  questions: 'questions',
  resolutions: 'resolutions',
  baselines: 'question_baselines',
};

/**
 * Writes the questions folder's files (packages/questions/README.md): each table as JSONL (one canonical
 * JSON object per line) and as Parquet with the same rows, and inputs.parquet; returns their manifest entries.
 */
export async function writeQuestionFiles(
  duck: Duck,
  dir: string,
  instances: readonly Instance[],
  observationFiles: string[],
): Promise<ManifestOutput[]> {
  const rows: Record<string, object[]> = {
    questions: instances.map((i) => i.question),
    resolutions: instances.map((i) => i.resolution),
    baselines: instances
      .flatMap((i) => i.baselines)
      .sort((a, b) =>
        a.model < b.model ? -1 : a.model > b.model ? 1 : a.instance_id < b.instance_id ? -1 : 1,
      ),
  };
  const outputs: ManifestOutput[] = [];
  for (const name of ['questions', 'resolutions', 'baselines']) {
    const jsonl = join(dir, `${name}.jsonl`);
    writeFileSync(jsonl, rows[name].map((r) => `${canonicalJson(r)}\n`).join(''));
    const columns = Object.entries(COLUMNS[name]).map(
      ([c, type]) => `${quoteLiteral(c)}: ${quoteLiteral(type)}`,
    );
    const grain = name === 'baselines' ? 'model, instance_id' : 'instance_id';
    await duck.writeParquet(
      `SELECT * FROM read_json(${quoteLiteral(jsonl)}, format = 'newline_delimited', columns = {${columns.join(', ')}}) ORDER BY ${grain}`,
      join(dir, `${name}.parquet`),
    );
    const described = Object.entries(COLUMNS[name]).map(([c, type]) => `${c}:${type}`);
    for (const path of [`${name}.jsonl`, `${name}.parquet`]) {
      outputs.push(
        await manifestOutput(dir, {
          path,
          table: TABLE_OF[name],
          rows: rows[name].length,
          columns: described,
          min_timestamp: null,
          max_timestamp: null,
          min_available_at: null,
          max_available_at: null,
        }),
      );
    }
  }
  outputs.push(await writeInputs(duck, dir, instances, observationFiles));
  return outputs;
}

async function writeInputs(
  duck: Duck,
  dir: string,
  instances: readonly Instance[],
  observationFiles: string[],
): Promise<ManifestOutput> {
  await duck.run(
    'CREATE OR REPLACE TABLE input_specs (instance_id VARCHAR, series_id VARCHAR, from_us BIGINT, t_us BIGINT)',
  );
  const specs = instances.flatMap((i) =>
    i.inputs.map(
      (s) => [i.question.instance_id, s.seriesId, BigInt(s.fromTs ?? -(2 ** 62)), BigInt(i.t)] as const,
    ),
  );
  await duck.appendColumns(
    'input_specs',
    [VARCHAR, VARCHAR, BIGINT, BIGINT],
    [specs.map((s) => s[0]), specs.map((s) => s[1]), specs.map((s) => s[2]), specs.map((s) => s[3])],
  );
  const query = loadQuery(SQL_DIR, 'question_inputs');
  const params = { observation_files: listValue(observationFiles) };
  await duck.writeParquet(query, join(dir, 'inputs.parquet'), params);
  const facts = await duck.one<{
    rows: bigint;
    min_t: string | null;
    max_t: string | null;
    min_a: string | null;
    max_a: string | null;
  }>(
    `SELECT count(*) AS rows, iso_instant(min("timestamp")) AS min_t, iso_instant(max("timestamp")) AS max_t,
            iso_instant(min(available_at)) AS min_a, iso_instant(max(available_at)) AS max_a
     FROM read_parquet(${quoteLiteral(join(dir, 'inputs.parquet'))})`,
  );
  return manifestOutput(dir, {
    path: 'inputs.parquet',
    table: 'question_inputs',
    rows: Number(facts.rows),
    columns: [
      'instance_id:VARCHAR',
      'series_id:VARCHAR',
      'timestamp:TIMESTAMPTZ',
      'available_at:TIMESTAMPTZ',
      'value:DOUBLE',
    ],
    min_timestamp: facts.min_t,
    max_timestamp: facts.max_t,
    min_available_at: facts.min_a,
    max_available_at: facts.max_a,
  });
}
