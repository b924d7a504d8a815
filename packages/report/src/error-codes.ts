import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/report's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const REPORT_ERRORS = {
  REPORT_CHART_FAILED: {
    exit: 1,
    when: 'a report chart could not be rendered',
    fix: 'a bug in @asof/report: report it with the command',
  },
  REPORT_KIND_UNKNOWN: {
    exit: 2,
    when: "the manifest's kind has no report",
    fix: 'pass a universe, split or score manifest',
  },
  REPORT_SERIES_NEEDS_UNIVERSE: {
    exit: 2,
    when: "asof report --series was given a manifest that is not a universe's",
    fix: "pass --manifest the universe's manifest.json",
  },
  REPORT_SERIES_UNKNOWN: {
    exit: 2,
    when: 'a --series of asof report names nothing in the universe',
    fix: "list series with 'asof series --data <universe folder> --search TEXT'",
  },
  RESULTS_INVALID: {
    exit: 2,
    when: 'a results.json is not JSON or does not match the results schema',
    fix: "pass the results.json 'asof score' wrote, or score again",
  },
  RESULTS_NOT_FOUND: {
    exit: 2,
    when: 'no results file at the --results path',
    fix: "pass the results.json 'asof score --out DIR' wrote",
  },
  RESULTS_OTHER_DATASET: {
    exit: 2,
    when: "the results were scored on another split than the manifest's",
    fix: 'pass --manifest the split manifest the results were scored on',
  },
} as const satisfies ErrorCatalogue;
