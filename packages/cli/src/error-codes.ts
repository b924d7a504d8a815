import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/cli's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const CLI_ERRORS = {
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
  RUN_NOTHING_TO_SCORE: {
    exit: 2,
    when: 'the model skipped every (series, origin) pair, so asof run --score has nothing to score',
    fix: 'answer at least one pair, or run without --score',
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
} as const satisfies ErrorCatalogue;
