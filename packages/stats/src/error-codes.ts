import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/stats' errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const STATS_ERRORS = {
  ADF_BAD_OPTION: {
    exit: 2,
    when: "adfStatistic was given a regression other than 'c'/'ct', an autolag other than 'AIC'/null, or a bad maxLag",
    fix: 'pass one of the values the message lists',
  },
  ADF_NONFINITE_INPUT: {
    exit: 2,
    when: 'adfStatistic got a NaN or infinite value',
    fix: 'drop missing steps before testing (asof itself never emits NaN observations)',
  },
  ADF_TOO_SHORT: {
    exit: 2,
    when: 'the series is too short for the ADF regression asked for',
    fix: 'test longer segments',
  },
} as const satisfies ErrorCatalogue;
