import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/source-embedded's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const SOURCE_EMBEDDED_ERRORS = {
  CSV_BAD_DATE: { exit: 2, when: "an embedded CSV row's date is not a calendar date", fix: 'fix the file' },
  CSV_BAD_NUMBER: { exit: 2, when: 'an embedded CSV cell is not a number', fix: 'fix the file' },
  CSV_BAD_SYMBOL: { exit: 2, when: 'an embedded CSV symbol cannot name a series', fix: 'fix the file' },
  CSV_IMPLAUSIBLE_VALUE: { exit: 2, when: 'an embedded CSV value is implausible', fix: 'fix the file' },
  CSV_RAGGED_ROW: {
    exit: 2,
    when: 'an embedded CSV row has more or fewer fields than the header',
    fix: 'fix the file',
  },
  EMBEDDED_FILE_MISSING: {
    exit: 2,
    when: 'an embedded dataset file cannot be read',
    fix: "reinstall asof's dependencies (vega-datasets)",
  },
  JSON_BAD_NUMBER: { exit: 2, when: "an embedded JSON row's rate is not a number", fix: 'fix the file' },
  JSON_BAD_ROW: {
    exit: 2,
    when: 'an embedded JSON row is not {series, year, month, rate}',
    fix: 'fix the file',
  },
  JSON_INVALID: {
    exit: 2,
    when: 'an embedded JSON file is not JSON',
    fix: "reinstall asof's dependencies (vega-datasets)",
  },
  RULE_BASED_AVAILABLE_AT: {
    exit: 'warning',
    when: 'series without release dates got available_at from publication rules',
    fix: 'nothing: read their available_at as a rule, not a record',
  },
  SYNTHETIC: {
    exit: 'warning',
    when: 'the universe holds synthetic series (ids starting syn:), not market data',
    fix: 'nothing: leave them out of results about markets',
  },
} as const satisfies ErrorCatalogue;
