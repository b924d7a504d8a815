import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/runner's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const RUNNER_ERRORS = {
  MODEL_BAD_HELLO: {
    exit: 1,
    when: "the model's hello message is malformed or asks for quantiles/samples asof cannot hold",
    fix: 'answer {"type":"hello",…} with ascending quantile levels or at most the allowed samples',
  },
  MODEL_COMMAND_EMPTY: { exit: 2, when: '--model is empty', fix: 'give the command that starts the model' },
  MODEL_COMMAND_NOT_STARTED: {
    exit: 2,
    when: 'the --model program cannot be started (not found, not executable)',
    fix: 'give a program and its arguments, e.g. --model "python3 examples/python/ewma_model.py"',
  },
  MODEL_COMMAND_QUOTE: { exit: 2, when: '--model has an unclosed quote', fix: 'close it' },
  MODEL_COMMAND_SHELL: {
    exit: 2,
    when: '--model holds a shell operator, but the model is started without a shell',
    fix: 'wrap the pipeline in one: --model "sh -c \'…\'"',
  },
  MODEL_DUPLICATE_PAIR: {
    exit: 1,
    when: 'the model answered one (series, origin) twice in one reply',
    fix: 'send one path per task',
  },
  MODEL_ERROR: {
    exit: 1,
    when: 'the model sent an error message',
    fix: "fix the model (the message is the model's own)",
  },
  MODEL_EXITED: {
    exit: 1,
    when: 'the model exited before answering',
    fix: "read the model's stderr in the message and fix the model",
  },
  MODEL_EXTRA_STEP: {
    exit: 1,
    when: 'a reply path has more steps than the horizon',
    fix: 'answer steps 1…horizon',
  },
  MODEL_LINE_TOO_LONG: {
    exit: 1,
    when: 'the model wrote a stdout line longer than the cap and was stopped',
    fix: 'write one JSON message per line, or raise --max-line-mb',
  },
  MODEL_MALFORMED_REPLY: {
    exit: 1,
    when: 'the model wrote a line that is not JSON',
    fix: 'write one JSON message per line on stdout (log to stderr)',
  },
  MODEL_MISSING_PAIR: {
    exit: 1,
    when: "the model's reply has no path for a (series, origin) the batch asked for",
    fix: 'answer every pair of the batch',
  },
  MODEL_MISSING_STEP: { exit: 1, when: 'a reply path misses steps of 1…horizon', fix: 'answer every step' },
  MODEL_NOT_FINITE: {
    exit: 1,
    when: "a value in the model's reply is NaN or infinite",
    fix: 'answer finite numbers',
  },
  MODEL_QUANTILES_CROSS: {
    exit: 1,
    when: "a reply's quantiles decrease as the level rises",
    fix: 'make quantiles non-decreasing in the level',
  },
  MODEL_TIMEOUT: {
    exit: 1,
    when: 'the model did not answer within --timeout-s and was stopped',
    fix: 'raise --timeout-s if it is only slow',
  },
  MODEL_UNASKED_LINE: {
    exit: 1,
    when: 'the model wrote a line after its last answer',
    fix: 'write exactly one line per message (log to stderr)',
  },
  MODEL_UNASKED_PAIR: {
    exit: 1,
    when: 'the model answered a series the batch did not ask for',
    fix: "answer only the batch's tasks",
  },
  MODEL_VALUE_TOO_LARGE: {
    exit: 1,
    when: "a value in the model's reply is beyond ±1e15",
    fix: 'forecast the series in its own units',
  },
  MODEL_WRONG_BATCH: {
    exit: 1,
    when: "the model answered with another batch's number",
    fix: 'answer each predict with its own batch number, in order',
  },
  MODEL_WRONG_QUANTILES: {
    exit: 1,
    when: "a reply path's quantiles do not match the levels the hello announced",
    fix: 'answer the announced quantile levels on every path',
  },
  MODEL_WRONG_SAMPLES: {
    exit: 1,
    when: "a reply path's samples do not match the count the hello announced",
    fix: 'answer the announced number of samples on every path',
  },
  RUN_BAD_ENV: {
    exit: 2,
    when: '--env is not a variable name or a prefix ending in *',
    fix: 'use e.g. --env MY_MODEL_HOME or --env MY_MODEL_*',
  },
  RUN_BAD_NAME: {
    exit: 2,
    when: '--name is empty or not printable text',
    fix: 'give a model name, e.g. --name ewma',
  },
  RUN_BASELINE_NAME: {
    exit: 2,
    when: '--name is a baseline the scorer computes itself',
    fix: 'name your model otherwise, e.g. --name my-ewma',
  },
  RUN_EMBARGO_BREACHED: {
    exit: 2,
    when: "the split's training observations reach past the train cutoff",
    fix: "remake the split with 'asof split'",
  },
  RUN_EMBARGO_MISMATCH: {
    exit: 2,
    when: "the split's train_cutoff is not eval_start minus its embargo",
    fix: "remake the split with 'asof split'",
  },
  RUN_NOT_A_SPLIT: {
    exit: 2,
    when: "asof run was given a manifest that is not a split's",
    fix: "pass the manifest.json of a split made by 'asof split'",
  },
  RUN_NO_SANDBOX: {
    exit: 2,
    when: '--sandbox on, but the sandbox (bubblewrap) cannot run here',
    fix: 'install bubblewrap or run with --sandbox auto',
  },
  RUN_ORIGIN_BEFORE_EVAL_START: {
    exit: 2,
    when: 'a split origin is before eval_start, so the embargo does not hold',
    fix: "remake the split with 'asof split'",
  },
  RUN_RECORD_INVALID: {
    exit: 2,
    when: 'an asof run record does not match its schema',
    fix: "run the model again (the record comes from 'asof run')",
  },
  RUN_SERVED_MISMATCH: {
    exit: 2,
    when: "the inputs served at an origin disagree with origins.parquet's n_input_steps",
    fix: "the split's files disagree: remake the split with 'asof split'",
  },
  RUN_SPLIT_INCOMPLETE: {
    exit: 2,
    when: 'the split lacks a file or table asof run needs',
    fix: "remake the split with 'asof split'",
  },
} as const satisfies ErrorCatalogue;
