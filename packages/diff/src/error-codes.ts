import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/diff's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const DIFF_ERRORS = {
  DIFF_SERIES_UNKNOWN: {
    exit: 2,
    when: 'a --series of asof diff names nothing in either universe',
    fix: "list series with 'asof series --data <universe folder> --search TEXT'",
  },
  VENDOR_RESTATED: {
    exit: 'warning',
    when: 'a later download changed values an earlier download had published',
    fix: 'nothing: each change is kept as a revision available from that download',
  },
} as const satisfies ErrorCatalogue;
