import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/taxonomy's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const TAXONOMY_ERRORS = {
  REGISTRY_INVALID: {
    exit: 2,
    when: 'a taxonomy registry file is missing, unreadable or has a bad row',
    fix: 'fix the row the message names (file and line), or restore the registry',
  },
  UNKNOWN_FREQUENCY: {
    exit: 2,
    when: 'registry horizons.tsv has no row for a frequency',
    fix: 'add the frequency to horizons.tsv, or use one it has',
  },
  UNKNOWN_PRICE_KIND: {
    exit: 2,
    when: 'registry price-kinds.tsv has no rule for a price kind and field',
    fix: 'use a kind and field price-kinds.tsv lists',
  },
  UNKNOWN_UNIT: {
    exit: 2,
    when: 'a series is classified into a unit the taxonomy registry does not have',
    fix: 'fix the classification, or add the unit to packages/taxonomy/registry/units.tsv',
  },
} as const satisfies ErrorCatalogue;
