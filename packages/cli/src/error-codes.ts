import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/cli's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const CLI_ERRORS = {
  ACCOUNTING_MISMATCH: {
    exit: 1,
    when: "a source reader's counts do not add up: records read ≠ mapped + dropped",
    fix: "a bug in that source's reader: report it with the file",
  },
  BASELINES_NOT_A_SPLIT: {
    exit: 2,
    when: "asof baselines was given a manifest that is not a split's",
    fix: "pass the manifest.json of a split made by 'asof split'",
  },
  BASELINES_NO_HISTORY: {
    exit: 2,
    when: 'an origin of the split has no history public at the origin, so a baseline has no forecast',
    fix: "the split's origins and inputs disagree: remake the split",
  },
  BASELINES_SPLIT_INCOMPLETE: {
    exit: 2,
    when: "the split's manifest lists no origins file or no history file (train_observations, inputs)",
    fix: "remake the split with 'asof split' (a split has both)",
  },
  BASELINES_SPLIT_OUTDATED: {
    exit: 2,
    when: "the split's inputs carry no step_index (an older 'asof split'), so late-released series cannot be placed on the grid",
    fix: "remake the split with 'asof split'",
  },
  DATA_NOT_A_FOLDER: {
    exit: 2,
    when: '--data names a glob, a file or something else than a universe folder',
    fix: "pass the folder that holds the universe's manifest.json",
  },
  DATA_NOT_FOUND: {
    exit: 2,
    when: '--data names no folder, or a folder without manifest.json',
    fix: "pass the folder 'asof build --out' wrote",
  },
  INGEST_DROPPED: {
    exit: 'warning',
    when: "a share of a file's mappable records was dropped (bad values, unmapped series…)",
    fix: "nothing if expected; the per-file counts are in the manifest's summary.ingest_accounting",
  },
  NO_SERIES: {
    exit: 2,
    when: "the pipeline's sources produced no series with observations",
    fix: "check the sources' raw_dir, tickers or series lists in the pipeline",
  },
  PIPELINE_INVALID: {
    exit: 2,
    when: 'the pipeline file is not JSON or does not match the pipeline schema',
    fix: 'fix the field the message names (schema: schemas/pipeline.schema.json)',
  },
  PIPELINE_NOT_A_FILE: {
    exit: 2,
    when: 'the pipeline path is not a regular file (a folder, a FIFO…)',
    fix: 'pass a pipeline .json file (see pipelines/ for examples)',
  },
  PIPELINE_NOT_FOUND: {
    exit: 2,
    when: 'no pipeline file at the given path',
    fix: 'check the path (see pipelines/ for examples)',
  },
  PIPELINE_PATH_OUTSIDE: {
    exit: 2,
    when: "a relative path in the pipeline leaves the pipeline's folder",
    fix: "keep relative paths inside the pipeline's folder, or give an absolute path",
  },
  RUN_NOTHING_TO_SCORE: {
    exit: 2,
    when: 'the model skipped every (series, origin) pair, so asof run --score has nothing to score',
    fix: 'answer at least one pair, or run without --score',
  },
  SCALE_NEEDS_DUCK: {
    exit: 1,
    when: 'runSources was called for the scale source without options.duck',
    fix: 'a bug in the caller: buildUniverse passes it',
  },
  SOURCE_SKIPPED: {
    exit: 'warning',
    when: 'a source skipped a series or company it could not read (live fetch or raw file)',
    fix: 'the message gives the reason; fix it and rebuild if that series is needed',
  },
  TAXONOMY_NAME_UNKNOWN: {
    exit: 2,
    when: 'asof taxonomy NAME names no scope, category, detail category or unit',
    fix: "'asof taxonomy' lists every unit; use one of those names",
  },
  UNEXPECTED_FAILURE: {
    exit: 1,
    when: 'an error asof did not raise on purpose (no code of its own) reached the command',
    fix: 'a bug in asof: report it with the command and the --json error document',
  },
  UNIVERSE_NO_SERIES_FILE: {
    exit: 2,
    when: "the universe's manifest lists no series file (series.parquet)",
    fix: "rebuild the universe with 'asof build', or restore its manifest.json",
  },
  UNKNOWN_COMMAND: {
    exit: 2,
    when: 'the first argument is not an asof command',
    fix: "use one of the commands 'asof --help' lists",
  },
  UPDATE_NEEDS_PIPELINE: {
    exit: 2,
    when: "OLD's manifest holds a pipeline config this asof cannot read any more",
    fix: 'pass the pipeline file: asof update --manifest OLD/manifest.json pipeline.json --out DIR',
  },
  UPDATE_RAW_DIR_NOT_FOUND: {
    exit: 2,
    when: "a source's raw_dir from OLD's pipeline is no folder from here (relative paths resolve against the working folder)",
    fix: 'run from the folder the paths are relative to, or pass the pipeline file',
  },
  UPDATE_REUSE_REFUSED: {
    exit: 1,
    when: 'asof update cannot reuse OLD as planned (an unforeseen overlap); it runs a full build instead',
    fix: 'nothing: the update falls back to a full build by itself',
  },
} as const satisfies ErrorCatalogue;
