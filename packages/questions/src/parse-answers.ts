import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { sha256Hex } from '@asof/manifest';
import { InputError, readCsv, shownValue } from '@asof/schema';
import type { Answer, QuestionRow } from './read-questions-folder.ts';
import { samePermutation } from './read-questions-folder.ts';

/** Model → instance_id → answer. */
export type ModelAnswers = Map<string, Map<string, Answer>>;

/** One answers file as read: what the derived manifest and results.json record of it. */
export interface AnswersFileFacts {
  /** The file's name (its folder is the caller's, not part of the result). */
  name: string;
  sha256: string;
  bytes: number;
  /** Answer rows read. */
  rows: number;
  models: string[];
}

export interface ParseAnswersOptions {
  questions: ReadonlyMap<string, QuestionRow>;
  /** Names an answers file may not use: the folder's baselines are scored under them. */
  reserved?: ReadonlySet<string>;
  /** Answers of earlier files, added to: a model answering an instance twice across files is refused too. */
  into?: ModelAnswers;
}

/** What a row holds before its answer is checked against the question. */
interface RawAnswer {
  line: number;
  id: unknown;
  answer: unknown;
  model: unknown;
  /** CSV cells are text: numbers and rankings are parsed from it. */
  text: boolean;
}

type Fail = (
  code: string,
  line: number,
  field: string,
  value: unknown,
  problem: string,
  hint: string,
) => never;

/**
 * Reads an answers file (packages/questions/README.md, "Answers files"): CSV with header
 * `instance_id,answer[,model]` or JSONL of `{instance_id, answer[, model]}`; without a model, the model is
 * the file's name without its extension. Every bad row is an InputError naming file, row (1-based line),
 * field and value, with a hint.
 */
export function parseAnswers(
  path: string,
  options: ParseAnswersOptions,
): { answers: ModelAnswers; facts: AnswersFileFacts } {
  const fail: Fail = (code, line, field, value, problem, hint) => {
    const shown =
      value === '' || value === undefined
        ? "''"
        : shownValue(typeof value === 'string' ? value : String(JSON.stringify(value)));
    throw new InputError(
      code,
      `${path}: row ${line}, field ${field}: ${shown}: ${problem}\n  hint: ${hint}`,
      { context: { file: path, row: line, field, value } },
    );
  };
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new InputError(
      'ANSWERS_NOT_FOUND',
      `--answers ${path}: no such file\n  hint: pass a CSV or JSONL answers file`,
      {
        context: { file: path },
      },
    );
  }
  const ext = extname(path).toLowerCase();
  if (ext !== '.csv' && ext !== '.jsonl') {
    throw new InputError(
      'ANSWERS_UNKNOWN_FORMAT',
      `--answers ${path}: '${shownValue(ext || '(none)')}' is not an answers format; expected .csv or .jsonl\n  hint: CSV with header instance_id,answer[,model], or JSONL of {"instance_id": …, "answer": …}`,
      { context: { file: path, value: ext } },
    );
  }
  const bytes = readFileSync(path);
  const text = bytes.toString('utf8');
  const raw = ext === '.csv' ? csvRows(text, path, fail) : jsonlRows(text, fail);
  const defaultModel = basename(path, extname(path));
  const answers: ModelAnswers = options.into ?? new Map();
  const models = new Set<string>();
  for (const r of raw) {
    const model = r.model === undefined ? defaultModel : r.model;
    checkRow(r, model, options, fail);
    const id = r.id as string;
    const q = options.questions.get(id) as QuestionRow;
    const answer = answerOf(r, q, fail);
    const byId = answers.get(model as string) ?? new Map<string, Answer>();
    if (byId.has(id)) {
      fail(
        'ANSWERS_DUPLICATE',
        r.line,
        'instance_id',
        id,
        `model ${shownValue(String(model))} answers this instance twice`,
        'keep one answer per model and instance (across every --answers file)',
      );
    }
    byId.set(id, answer);
    answers.set(model as string, byId);
    models.add(model as string);
  }
  if (raw.length === 0) {
    throw new InputError(
      'ANSWERS_EMPTY',
      `${path}: holds no answer\n  hint: an instance may be left out, but a file needs at least one answer`,
      {
        context: { file: path },
      },
    );
  }
  return {
    answers,
    facts: {
      name: basename(path),
      sha256: sha256Hex(bytes),
      bytes: bytes.length,
      rows: raw.length,
      models: [...models].sort(),
    },
  };
}

function checkRow(r: RawAnswer, model: unknown, options: ParseAnswersOptions, fail: Fail): void {
  if (typeof model !== 'string' || model.trim() === '')
    fail(
      'ANSWERS_MISSING_MODEL',
      r.line,
      'model',
      model,
      'not a model name',
      'name the model, or leave the field out (the model is then the file name)',
    );
  if (options.reserved?.has(model as string))
    fail(
      'ANSWERS_MODEL_IS_BASELINE',
      r.line,
      'model',
      model,
      "is a baseline's name",
      'rename the model: the baselines are always scored under their own names',
    );
  if (r.id === undefined || r.id === null || r.id === '')
    fail(
      'ANSWERS_MISSING_ID',
      r.line,
      'instance_id',
      r.id ?? '',
      'empty',
      "copy the instance_id from the questions folder's questions.jsonl",
    );
  if (typeof r.id !== 'string' || !options.questions.has(r.id))
    fail(
      'ANSWERS_UNKNOWN_ID',
      r.line,
      'instance_id',
      r.id,
      'no such instance in the questions folder',
      'answer the instances of questions.jsonl in the folder given to --questions',
    );
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The row's answer checked against its question's family: a number, a probability or a ranking. */
function answerOf(r: RawAnswer, q: QuestionRow, fail: Fail): Answer {
  if (q.family === 'RANK') {
    const ranking =
      r.text && typeof r.answer === 'string' ? r.answer.split(';').map((s) => s.trim()) : r.answer;
    if (!Array.isArray(ranking) || !samePermutation(ranking, q.subjects)) {
      fail(
        'ANSWERS_BAD_RANKING',
        r.line,
        'answer',
        r.answer,
        `not a permutation of the instance's ${q.subjects.length} subjects (${q.subjects.slice(0, 5).join(', ')}${q.subjects.length > 5 ? ', …' : ''})`,
        `list every subject exactly once, highest expected return first${r.text ? ', joined by ;' : ', as a JSON array'}`,
      );
    }
    return ranking as string[];
  }
  let value: number | undefined;
  if (r.text && typeof r.answer === 'string' && DECIMAL.test(r.answer.trim()))
    value = Number(r.answer.trim());
  else if (!r.text && typeof r.answer === 'number') value = r.answer;
  if (value === undefined || !Number.isFinite(value)) {
    fail(
      'ANSWERS_NOT_A_NUMBER',
      r.line,
      'answer',
      r.answer,
      `not a number (a ${q.family} instance)`,
      q.family === 'EVT'
        ? 'write the probability of the event as a decimal between 0 and 1'
        : 'write a plain decimal number, e.g. 101.25',
    );
  }
  if (q.family === 'EVT' && ((value as number) < 0 || (value as number) > 1)) {
    fail(
      'ANSWERS_PROBABILITY_RANGE',
      r.line,
      'answer',
      r.answer,
      'a probability outside [0, 1] (an EVT instance)',
      'write the probability of the event, between 0 and 1',
    );
  }
  return value as number;
}

const CSV_COLUMNS = ['instance_id', 'answer', 'model'];

function csvRows(text: string, path: string, fail: Fail): RawAnswer[] {
  const records = readCsv(text, path, 'ANSWERS_BAD_ROW');
  if (records.length === 0) return [];
  const header = records[0].cells.map((c) => c.trim());
  const headerHint = 'start the file with the header instance_id,answer (or instance_id,answer,model)';
  for (const c of header) {
    if (!CSV_COLUMNS.includes(c))
      fail('ANSWERS_BAD_HEADER', records[0].line, 'header', c, 'not a column of an answers file', headerHint);
    if (header.indexOf(c) !== header.lastIndexOf(c))
      fail('ANSWERS_BAD_HEADER', records[0].line, 'header', c, 'a column twice', headerHint);
  }
  for (const c of ['instance_id', 'answer']) {
    if (!header.includes(c))
      fail(
        'ANSWERS_BAD_HEADER',
        records[0].line,
        'header',
        records[0].cells.join(','),
        `no ${c} column`,
        headerHint,
      );
  }
  const at = (name: string) => header.indexOf(name);
  return records.slice(1).map((rec) => {
    if (rec.cells.length !== header.length) {
      fail(
        'ANSWERS_BAD_ROW',
        rec.line,
        '(row)',
        rec.cells.join(','),
        `${rec.cells.length} cells, the header has ${header.length}`,
        'one answer per row: instance_id,answer[,model] (quote a cell that holds a comma)',
      );
    }
    return {
      line: rec.line,
      id: rec.cells[at('instance_id')].trim(),
      answer: rec.cells[at('answer')],
      model: at('model') < 0 ? undefined : rec.cells[at('model')].trim(),
      text: true,
    };
  });
}

function jsonlRows(text: string, fail: Fail): RawAnswer[] {
  const out: RawAnswer[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const lineText = lines[i].replace(/\r$/, '').replace(/^\uFEFF/, '');
    if (lineText.trim() === '') continue;
    const hint = 'one JSON object per line: {"instance_id": "…", "answer": …[, "model": "…"]}';
    let obj: unknown;
    try {
      obj = JSON.parse(lineText);
    } catch {
      fail('ANSWERS_BAD_ROW', i + 1, '(line)', lineText, 'not JSON', hint);
    }
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj))
      fail('ANSWERS_BAD_ROW', i + 1, '(line)', lineText, 'not a JSON object', hint);
    const o = obj as Record<string, unknown>;
    const extra = Object.keys(o).find((k) => !CSV_COLUMNS.includes(k));
    if (extra !== undefined)
      fail('ANSWERS_BAD_ROW', i + 1, extra, o[extra], 'not a field of an answer', hint);
    if (!('answer' in o)) fail('ANSWERS_BAD_ROW', i + 1, 'answer', lineText, 'missing', hint);
    out.push({
      line: i + 1,
      id: o.instance_id,
      answer: o.answer,
      model: 'model' in o ? o.model : undefined,
      text: false,
    });
  }
  return out;
}
