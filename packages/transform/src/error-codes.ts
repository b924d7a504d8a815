import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/transform's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const TRANSFORM_ERRORS = {
  EVAL_START_AFTER_DATA: {
    exit: 'warning',
    when: "eval_start is after every series' last observation, so no origin can be evaluated",
    fix: 'set eval_start (pipeline field) on or before the last observation',
  },
  EVAL_TARGET_TOO_SHORT: {
    exit: 'warning',
    when: 'evaluated series end before one full horizon after eval_start, so they are not eval targets',
    fix: 'nothing if expected; move eval_start earlier to score them',
  },
  INVARIANT_VIOLATED: {
    exit: 1,
    when: 'the build broke an invariant on the rows the message names',
    fix: 'fix the source rows named in the message',
  },
  MEMBERSHIP_INVALID: {
    exit: 2,
    when: 'a membership row does not meet the membership contract',
    fix: 'fix the membership file the row came from',
  },
  MEMBERSHIP_WITHOUT_SERIES: {
    exit: 'warning',
    when: 'entities the membership files name have no series in the universe',
    fix: 'add their histories, delisted companies included',
  },
  OBSERVATION_INVALID: {
    exit: 2,
    when: 'a source produced observation arrays of unequal lengths',
    fix: "a bug in that source's reader: report it",
  },
  SERIES_INVALID: {
    exit: 2,
    when: 'a source produced a series record that does not meet the series schema',
    fix: "a bug in that source's reader unless the raw file is at fault: report it",
  },
} as const satisfies ErrorCatalogue;
