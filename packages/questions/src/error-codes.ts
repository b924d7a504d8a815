import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/questions' errors and warnings (asof questions / asof score-questions). docs/errors.md
 * is generated from these lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw
 * site is in one.
 */
export const QUESTIONS_ERRORS = {} as const satisfies ErrorCatalogue;
