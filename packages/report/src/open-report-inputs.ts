import { existsSync, statSync } from 'node:fs';
import { type Duck, quoteIdent, quoteLiteral } from '@asof/duck';
import { openVerifiedManifest, type VerifiedManifest } from '@asof/manifest';
import { type QuestionScores, readQuestionScores } from '@asof/questions';
import { InputError, type Manifest, zodInputError } from '@asof/schema';
import { readScoreResultsBytes, ScoringResults } from '@asof/scoring';

/** Manifest kinds a report knows how to draw. */
export const REPORT_KINDS = ['universe', 'split', 'fintsb-export', 'questions'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** The columns a report reads of the big tables (the rest, such as source_ref, would only cost memory). */
const OBSERVATION_COLUMNS = 'series_id, "timestamp", available_at, value, available_at_basis';
const COLUMNS: Record<string, string> = {
  observations: OBSERVATION_COLUMNS,
  train_observations: OBSERVATION_COLUMNS,
};

export interface ReportInputs {
  manifestPath: string;
  manifest: Manifest;
  kind: ReportKind;
  /** The scoring results document, when one was given. */
  results?: ScoringResults;
  /** The results of `asof score-questions`, for a questions folder's manifest. */
  questionScores?: QuestionScores;
  resultsPath?: string;
  /** Manifest tables loaded into DuckDB, each as table `in_<table>` (e.g. in_observations, in_origins). */
  tables: Set<string>;
}

/**
 * The one place a report touches files: opens the manifest verified (every listed file hashed through the
 * descriptor it is then read by, docs/decisions/0010), loads exactly the files it lists (never a glob over
 * the folder) into DuckDB tables `in_<table>`, re-checks them, and reads and validates the results
 * document. Everything the report shows is aggregated from these tables.
 */
export async function openReportInputs(
  manifestPath: string,
  duck: Duck,
  resultsPath?: string,
): Promise<ReportInputs> {
  const verified = await openVerifiedManifest(manifestPath);
  try {
    return await verified.guard(async () => {
      const inputs = await loadVerified(verified, manifestPath, duck, resultsPath);
      await verified.recheck();
      return inputs;
    });
  } finally {
    verified.close();
  }
}

/** Loads the verified files into DuckDB, reading through the descriptors that were hashed. */
async function loadVerified(
  verified: VerifiedManifest,
  manifestPath: string,
  duck: Duck,
  resultsPath?: string,
): Promise<ReportInputs> {
  const manifest = verified.manifest;
  if (!(REPORT_KINDS as readonly string[]).includes(manifest.kind)) {
    throw new InputError(
      'REPORT_KIND_UNKNOWN',
      `${manifestPath}: manifest kind '${manifest.kind}' has no report; expected one of ${REPORT_KINDS.join(', ')}`,
      { context: { file: manifestPath, field: 'kind', value: manifest.kind } },
    );
  }
  if (manifest.kind === 'questions') return questionsInputs(manifest, manifestPath, resultsPath);
  // The results document first: a refused one stops the report before any table is loaded.
  const results = resultsPath === undefined ? undefined : await readResults(resultsPath, manifest);
  const byTable = new Map<string, string[]>();
  for (const f of verified.files()) {
    const list = byTable.get(f.output.table) ?? [];
    list.push(f.readPath);
    byTable.set(f.output.table, list);
  }
  for (const [table, files] of byTable) {
    await duck.run(
      `CREATE OR REPLACE TABLE ${quoteIdent(`in_${table}`)} AS SELECT ${COLUMNS[table] ?? '*'}
       FROM read_parquet([${files.map(quoteLiteral).join(', ')}], hive_partitioning = false)`,
    );
  }
  const inputs: ReportInputs = {
    manifestPath,
    manifest,
    kind: manifest.kind as ReportKind,
    tables: new Set(byTable.keys()),
  };
  if (results !== undefined) {
    inputs.results = results;
    inputs.resultsPath = resultsPath;
  }
  return inputs;
}

/**
 * Reads a results.json once its score folder's manifest verified it (readScoreResultsBytes), and checks it
 * scores this split (or a split of this universe).
 */
async function readResults(path: string, manifest: Manifest): Promise<ScoringResults> {
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new InputError(
      'RESULTS_NOT_FOUND',
      `--results ${path}: no such file\n  hint: pass the results.json that 'asof score --out DIR' wrote (DIR/results.json)`,
      { context: { file: path } },
    );
  }
  const bytes = await readScoreResultsBytes(path);
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch (cause) {
    throw new InputError('RESULTS_INVALID', `${path}: not JSON (${(cause as Error).message})`, {
      cause,
      context: { file: path },
    });
  }
  const parsed = ScoringResults.safeParse(raw);
  if (!parsed.success) throw zodInputError('RESULTS_INVALID', path, parsed.error);
  const r = parsed.data;
  if (r.dataset_id !== manifest.dataset_id && r.parent_dataset_id !== manifest.dataset_id) {
    throw new InputError(
      'RESULTS_OTHER_DATASET',
      `${path}: scores dataset ${String(r.dataset_id).slice(0, 12)} (parent ${String(r.parent_dataset_id).slice(0, 12)}), not the manifest's ${manifest.dataset_id.slice(0, 12)}\n  hint: pass --manifest the split manifest the results were scored on`,
      { context: { file: path, field: 'dataset_id', value: r.dataset_id } },
    );
  }
  return r;
}

/**
 * A questions folder's report reads no table of the folder (its JSONL files hold the questions, not
 * aggregates worth drawing): the sections come from the scores, which must score this very folder.
 */
async function questionsInputs(
  manifest: Manifest,
  manifestPath: string,
  resultsPath: string | undefined,
): Promise<ReportInputs> {
  const inputs: ReportInputs = { manifestPath, manifest, kind: 'questions', tables: new Set() };
  if (resultsPath === undefined) return inputs;
  const scores = await readQuestionScores(resultsPath);
  if (scores.questions_dataset_id !== manifest.dataset_id) {
    throw new InputError(
      'RESULTS_OTHER_DATASET',
      `${resultsPath}: scores questions ${scores.questions_dataset_id.slice(0, 12)}, not the manifest's ${manifest.dataset_id.slice(0, 12)}\n  hint: pass --manifest the questions folder's manifest.json the answers were scored on`,
      { context: { file: resultsPath, field: 'questions_dataset_id', value: scores.questions_dataset_id } },
    );
  }
  return { ...inputs, questionScores: scores, resultsPath };
}
