import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/questions' errors and warnings (asof questions / asof score-questions). docs/errors.md
 * is generated from these lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw
 * site is in one.
 */
export const QUESTIONS_ERRORS = {
  QUESTIONS_NOT_A_UNIVERSE: {
    exit: 2,
    when: "asof questions was given a manifest that is not a universe's (a split, an export) or lists no observation or series file",
    fix: "pass the manifest.json of a folder 'asof build' wrote",
  },
  QUESTIONS_CUTOFF_AFTER_RUN_DATE: {
    exit: 2,
    when: '--model-cutoff is after --run-date',
    fix: 'a model runs after its knowledge cutoff: give a run date at or after the cutoff',
  },
} as const satisfies ErrorCatalogue;
