import type { ErrorCatalogue } from './error-catalogue.ts';

/**
 * The codes of @asof/schema's errors and warnings, and of those several packages share: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const SCHEMA_ERRORS = {
  METRIC_BAD_PARAMETER: {
    exit: 2,
    when: 'a metric or statistical function was given an out-of-range parameter (periodsPerYear ≤ 0, df ≤ 0…)',
    fix: 'pass the value the message expects',
  },
  NOT_A_UNIVERSE: {
    exit: 2,
    when: 'a command that reads a universe was given a manifest of another kind (a split, a score…)',
    fix: "pass a universe built with 'asof build' (for a split, its parent universe)",
  },
  SURVIVORSHIP: {
    exit: 'warning',
    when: 'the universe holds entities chosen after the fact, without point-in-time membership',
    fix: 'nothing if expected; add membership files for point-in-time cross-sections',
  },
  UNKNOWN_SERIES: {
    exit: 2,
    when: 'a series id names no series (asof series --data; a HistoryStore that did not load it)',
    fix: "list series with 'asof series --data <universe folder> --search TEXT'",
  },
  USAGE: {
    exit: 2,
    when: 'a command line has an unexpected argument, a missing one, or a bad flag value',
    fix: 'read the usage line the message prints (asof <command> --help)',
  },
} as const satisfies ErrorCatalogue;
