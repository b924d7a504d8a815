import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/calendar's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const CALENDAR_ERRORS = {
  BAD_DATE: {
    exit: 2,
    when: 'a date is not a valid calendar date YYYY-MM-DD',
    fix: 'fix the date in the raw file',
  },
  BAD_INSTANT: {
    exit: 2,
    when: 'an instant is not a valid ISO instant with a zone',
    fix: 'fix the instant in the raw file',
  },
  BAD_TIME: { exit: 2, when: 'a time of day is not HH:MM[:SS[.ffffff]]', fix: 'write the time as HH:MM' },
  NOT_A_TRADING_DAY: {
    exit: 2,
    when: 'a date is not a US trading day, so it has no session close',
    fix: 'use a trading day (weekends and exchange holidays have none)',
  },
} as const satisfies ErrorCatalogue;
