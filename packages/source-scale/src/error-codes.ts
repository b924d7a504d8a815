import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/source-scale's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const SOURCE_SCALE_ERRORS = {
  SCALE_SHAPE_INVALID: {
    exit: 2,
    when: "a row of the scale universe's shape file is malformed",
    fix: 'fix the row in data/finverse-shape.tsv',
  },
  SCALE_UNIT_UNKNOWN: {
    exit: 2,
    when: "a unit of the scale universe's shape is not in the taxonomy registry",
    fix: 'add it to units.tsv or remove it from data/finverse-shape.tsv',
  },
} as const satisfies ErrorCatalogue;
