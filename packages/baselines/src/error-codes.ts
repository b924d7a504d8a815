import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/baselines' errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const BASELINES_ERRORS = {
  ARIMA_FIT_FAILED: {
    exit: 1,
    when: "the ARIMA baseline could not be fitted to a series' history",
    fix: 'none needed: the baseline falls back for that origin; report it if it hides a bug',
  },
} as const satisfies ErrorCatalogue;
