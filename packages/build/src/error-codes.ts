import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/build's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const BUILD_ERRORS = {
  ACCOUNTING_MISMATCH: {
    exit: 1,
    when: "a source reader's counts do not add up: records read ≠ mapped + dropped",
    fix: "a bug in that source's reader: report it with the file",
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
