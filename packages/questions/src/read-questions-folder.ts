import { readFileSync } from 'node:fs';
import type { VerifiedFile, VerifiedManifest } from '@asof/manifest';
import { InputError, type Manifest, shownValue } from '@asof/schema';

export const QUESTION_FAMILIES = ['VAL', 'RANK', 'EVT', 'FUND'] as const;
export type QuestionFamily = (typeof QUESTION_FAMILIES)[number];
export const QUESTION_WINDOWS = ['T1', 'T2', 'T3'] as const;
export type QuestionWindow = (typeof QUESTION_WINDOWS)[number];

/** The manifest kind of a questions folder (packages/questions/README.md). */
export const QUESTIONS_KIND = 'questions';

/** The fields of a `questions.jsonl` row the scorer reads (README: "Files of a questions folder"). */
export interface QuestionRow {
  instance_id: string;
  family: QuestionFamily;
  window: QuestionWindow;
  cluster_id: string;
  subjects: string[];
  scorer_params: Record<string, unknown>;
}

/** A `resolutions.jsonl` row, as far as scoring goes. */
export interface ResolutionRow {
  instance_id: string;
  status: 'resolved' | 'open';
  value: number | null;
  ranking: string[] | null;
}

/** An answer: a number (VAL, FUND, EVT) or a ranking of the instance's subjects (RANK). */
export type Answer = number | string[];

/** A `baselines.jsonl` row. */
export interface BaselineAnswerRow {
  model: string;
  instance_id: string;
  answer: Answer;
}

export interface QuestionsFolder {
  manifest: Manifest;
  questions: Map<string, QuestionRow>;
  resolutions: Map<string, ResolutionRow>;
  baselines: BaselineAnswerRow[];
  /** The verified files read, for the derived manifest's inputs. */
  files: VerifiedFile[];
}

/** The table names of the files read (README), in the order they are read. */
const TABLES = ['questions', 'resolutions', 'question_baselines'] as const;

/**
 * Reads a verified questions folder: exactly the `.jsonl` files its manifest lists for the tables questions,
 * resolutions and question_baselines (the Parquet twins hold the same rows). Refuses another manifest kind,
 * a missing table and a row that breaks the README's contract, naming file, line and field.
 */
export function readQuestionsFolder(verified: VerifiedManifest): QuestionsFolder {
  const manifest = verified.manifest;
  if (manifest.kind !== QUESTIONS_KIND) {
    throw new InputError(
      'QUESTIONS_NOT_A_QUESTIONS_FOLDER',
      `${verified.label}: manifest kind is '${shownValue(manifest.kind)}', expected 'questions'\n  hint: pass --questions the folder 'asof questions --out DIR' wrote`,
      { context: { file: verified.label, field: 'kind', value: manifest.kind } },
    );
  }
  const files: VerifiedFile[] = [];
  const rowsOf = (table: (typeof TABLES)[number]) => {
    const listed = verified.files(table).filter((f) => f.output.path.endsWith('.jsonl'));
    if (listed.length === 0) {
      throw new InputError(
        'QUESTIONS_FOLDER_INCOMPLETE',
        `${verified.label}: lists no .jsonl file of table '${table}'\n  hint: write the folder again with 'asof questions' (packages/questions/README.md lists its files)`,
        { context: { file: verified.label, field: 'outputs', value: table } },
      );
    }
    files.push(...listed);
    return listed.flatMap((f) => jsonlRows(f));
  };
  const questions = new Map<string, QuestionRow>();
  for (const r of rowsOf('questions')) {
    const q = questionRow(r);
    if (questions.has(q.instance_id))
      r.fail('instance_id', q.instance_id, 'one row per instance (this is its second)');
    questions.set(q.instance_id, q);
  }
  const resolutions = new Map<string, ResolutionRow>();
  for (const r of rowsOf('resolutions')) {
    const res = resolutionRow(r, questions);
    resolutions.set(res.instance_id, res);
  }
  for (const q of questions.values()) {
    if (q.window !== 'T3' && resolutions.get(q.instance_id)?.status !== 'resolved') {
      throw new InputError(
        'QUESTIONS_FOLDER_INVALID',
        `${verified.label}: ${q.window} instance ${q.instance_id} has no resolved row in resolutions.jsonl\n  hint: write the folder again with 'asof questions'`,
        { context: { file: verified.label, field: 'instance_id', value: q.instance_id } },
      );
    }
  }
  const baselines = rowsOf('question_baselines').map((r) => baselineRow(r, questions));
  return { manifest, questions, resolutions, baselines, files };
}

/** One parsed JSONL object with what a message about it needs. */
interface JsonlRow {
  obj: Record<string, unknown>;
  fail: (field: string, value: unknown, expected: string) => never;
}

function jsonlRows(file: VerifiedFile): JsonlRow[] {
  const text = readFileSync(file.readPath, 'utf8');
  const out: JsonlRow[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const line = i + 1;
    const fail = (field: string, value: unknown, expected: string): never => {
      const shown = shownValue(typeof value === 'string' ? value : String(JSON.stringify(value)));
      throw new InputError(
        'QUESTIONS_FOLDER_INVALID',
        `${file.path}: line ${line}, field ${field}: ${shown}; expected ${expected}\n  hint: write the folder again with 'asof questions' (packages/questions/README.md)`,
        { context: { file: file.path, row: line, field, value } },
      );
    };
    let obj: unknown;
    try {
      obj = JSON.parse(lines[i]);
    } catch {
      fail('(line)', lines[i], 'one JSON object per line');
    }
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj))
      fail('(line)', lines[i], 'a JSON object');
    out.push({ obj: obj as Record<string, unknown>, fail });
  }
  return out;
}

function str(r: JsonlRow, field: string): string {
  const v = r.obj[field];
  if (typeof v !== 'string' || v === '') return r.fail(field, v, 'a non-empty string');
  return v;
}

function oneOf<T extends string>(r: JsonlRow, field: string, allowed: readonly T[]): T {
  const v = r.obj[field];
  if (!allowed.includes(v as T)) return r.fail(field, v, `one of ${allowed.join(', ')}`);
  return v as T;
}

function stringArray(r: JsonlRow, field: string): string[] {
  const v = r.obj[field];
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string'))
    return r.fail(field, v, 'an array of strings');
  return v as string[];
}

function finite(r: JsonlRow, field: string): number {
  const v = r.obj[field];
  if (typeof v !== 'number' || !Number.isFinite(v)) return r.fail(field, v, 'a finite number');
  return v;
}

function questionRow(r: JsonlRow): QuestionRow {
  const family = oneOf(r, 'family', QUESTION_FAMILIES);
  const params = r.obj.scorer_params;
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    r.fail('scorer_params', params, 'an object');
  const q: QuestionRow = {
    instance_id: str(r, 'instance_id'),
    family,
    window: oneOf(r, 'window', QUESTION_WINDOWS),
    cluster_id: str(r, 'cluster_id'),
    subjects: stringArray(r, 'subjects'),
    scorer_params: params as Record<string, unknown>,
  };
  const p = { obj: q.scorer_params, fail: r.fail };
  if (family === 'VAL') finite(p, 'reference');
  if (family === 'FUND' && !(finite(p, 'scale') > 0))
    r.fail('scorer_params.scale', p.obj.scale, 'a number > 0');
  if (family === 'RANK') {
    const k = p.obj.k;
    if (typeof k !== 'number' || !Number.isInteger(k) || k < 1 || k > q.subjects.length)
      r.fail('scorer_params.k', k, `an integer from 1 to the number of subjects (${q.subjects.length})`);
    if (q.subjects.length < 2 || new Set(q.subjects).size !== q.subjects.length)
      r.fail('subjects', q.subjects, 'at least two distinct series ids');
  }
  return q;
}

function resolutionRow(r: JsonlRow, questions: Map<string, QuestionRow>): ResolutionRow {
  const id = str(r, 'instance_id');
  const q = questions.get(id);
  if (q === undefined) return r.fail('instance_id', id, 'an instance of questions.jsonl');
  const status = oneOf(r, 'status', ['resolved', 'open'] as const);
  const res: ResolutionRow = { instance_id: id, status, value: null, ranking: null };
  if (status === 'open') return res;
  if (q.family === 'RANK') {
    res.ranking = stringArray(r, 'ranking');
    if (!samePermutation(res.ranking, q.subjects))
      r.fail('ranking', res.ranking, "a permutation of the question's subjects");
  } else {
    res.value = finite(r, 'value');
    if (q.family === 'EVT' && res.value !== 0 && res.value !== 1) r.fail('value', res.value, '0 or 1');
    if (q.family === 'VAL' && res.value === 0) r.fail('value', res.value, 'a non-zero close');
  }
  return res;
}

function baselineRow(r: JsonlRow, questions: Map<string, QuestionRow>): BaselineAnswerRow {
  const id = str(r, 'instance_id');
  const q = questions.get(id);
  if (q === undefined) return r.fail('instance_id', id, 'an instance of questions.jsonl');
  const answer = r.obj.answer;
  if (q.family === 'RANK') {
    if (!Array.isArray(answer) || !samePermutation(answer, q.subjects))
      r.fail('answer', answer, "a permutation of the question's subjects");
  } else if (typeof answer !== 'number' || !Number.isFinite(answer))
    r.fail('answer', answer, 'a finite number');
  return { model: str(r, 'model'), instance_id: id, answer: answer as Answer };
}

/** Whether `a` holds each of `subjects` exactly once and nothing else. */
export function samePermutation(a: readonly unknown[], subjects: readonly string[]): boolean {
  if (a.length !== subjects.length) return false;
  const want = new Set(subjects);
  const seen = new Set<unknown>();
  for (const s of a) {
    if (typeof s !== 'string' || !want.has(s) || seen.has(s)) return false;
    seen.add(s);
  }
  return true;
}
