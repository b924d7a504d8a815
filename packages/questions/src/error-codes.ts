import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/questions' errors and warnings (asof questions / asof score-questions). docs/errors.md
 * is generated from these lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw
 * site is in one.
 */
export const QUESTIONS_ERRORS = {
  QUESTIONS_NOT_A_UNIVERSE: {
    exit: 2,
    when: "asof questions was given a manifest that is not a universe's (a split, an export) or lists no observation or series file",
    fix: "pass the manifest.json of a folder 'asof build' wrote",
  },
  QUESTIONS_CUTOFF_AFTER_RUN_DATE: {
    exit: 2,
    when: '--model-cutoff is after --run-date',
    fix: 'a model runs after its knowledge cutoff: give a run date at or after the cutoff',
  },
  QUESTIONS_NOT_A_QUESTIONS_FOLDER: {
    exit: 2,
    when: "asof score-questions was given a manifest whose kind is not 'questions' (a universe, a split, a score)",
    fix: "pass --questions the folder 'asof questions --out DIR' wrote",
  },
  QUESTIONS_FOLDER_INCOMPLETE: {
    exit: 2,
    when: "the questions folder's manifest lists no .jsonl file of the table questions, resolutions or question_baselines",
    fix: "write the folder again with 'asof questions' (packages/questions/README.md lists its files)",
  },
  QUESTIONS_FOLDER_INVALID: {
    exit: 2,
    when: "a row of the questions folder's questions, resolutions or baselines .jsonl does not meet packages/questions/README.md (a field missing or of the wrong type, a resolution missing for a T1/T2 instance)",
    fix: "write the folder again with 'asof questions'; the message names the file, line and field",
  },
  ANSWERS_NOT_FOUND: {
    exit: 2,
    when: 'an --answers file does not exist or is not a regular file',
    fix: 'pass the path of a CSV or JSONL answers file',
  },
  ANSWERS_UNKNOWN_FORMAT: {
    exit: 2,
    when: 'an --answers file does not end in .csv or .jsonl',
    fix: 'write the answers as CSV (instance_id,answer[,model]) or JSONL ({"instance_id", "answer"[, "model"]})',
  },
  ANSWERS_BAD_HEADER: {
    exit: 2,
    when: 'a CSV answers file has no instance_id or answer column, a column twice, or a column other than instance_id, answer and model',
    fix: 'start the file with the header instance_id,answer (or instance_id,answer,model)',
  },
  ANSWERS_BAD_ROW: {
    exit: 2,
    when: 'a JSONL line is not a JSON object with instance_id and answer (and optionally model) only, or a CSV row has another number of cells than the header',
    fix: 'one answer per row: {"instance_id": "…", "answer": …} or instance_id,answer',
  },
  ANSWERS_EMPTY: {
    exit: 2,
    when: 'an answers file holds no answer',
    fix: 'pass a file with at least one answer (an instance may be left out; coverage is reported)',
  },
  ANSWERS_MISSING_ID: {
    exit: 2,
    when: 'an answer has an empty or missing instance_id',
    fix: "copy the instance_id from the questions folder's questions.jsonl",
  },
  ANSWERS_UNKNOWN_ID: {
    exit: 2,
    when: 'an answer names an instance_id the questions folder does not have',
    fix: 'answer the questions of this folder (questions.jsonl); answers for another folder do not score here',
  },
  ANSWERS_DUPLICATE: {
    exit: 2,
    when: 'one model answers one instance twice (in one file or across --answers files)',
    fix: 'keep one answer per model and instance',
  },
  ANSWERS_MISSING_MODEL: {
    exit: 2,
    when: "an answer's model is empty",
    fix: 'name the model in the model column, or drop the column (the model is then the file name)',
  },
  ANSWERS_MODEL_IS_BASELINE: {
    exit: 2,
    when: "an answers file's model has the name of one of the folder's baselines (last_value, base_rate, coin_flip, momentum, random)",
    fix: 'rename the model: the baselines are always scored under their own names',
  },
  ANSWERS_NOT_A_NUMBER: {
    exit: 2,
    when: 'a VAL, FUND or EVT answer is not a finite number',
    fix: 'write a plain decimal number (a probability for EVT)',
  },
  ANSWERS_PROBABILITY_RANGE: {
    exit: 2,
    when: 'an EVT answer is a number outside [0, 1]',
    fix: 'write the probability of the event, between 0 and 1',
  },
  ANSWERS_BAD_RANKING: {
    exit: 2,
    when: "a RANK answer is not a permutation of the instance's subjects (a series missing, unknown or twice)",
    fix: 'list every subject exactly once, highest expected return first (CSV: series ids joined by ;)',
  },
  QUESTION_SCORES_NOT_FOUND: {
    exit: 2,
    when: 'asof report --results names no file (a questions report)',
    fix: "pass the results.json 'asof score-questions --out DIR' wrote",
  },
  QUESTION_SCORES_NOT_A_SCORE: {
    exit: 2,
    when: "a questions report's --results has no manifest.json beside it, or that manifest is not a question-scores folder's listing it as its results",
    fix: "pass DIR/results.json of a folder 'asof score-questions --out DIR' wrote; score again if it was moved out of it",
  },
  QUESTION_SCORES_INVALID: {
    exit: 2,
    when: 'a question-scores results.json is not JSON or not a results_version 1 document',
    fix: 'score again with this asof',
  },
} as const satisfies ErrorCatalogue;
