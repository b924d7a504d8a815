import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/duck's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const DUCK_ERRORS = {
  BAD_IDENTIFIER: {
    exit: 2,
    when: 'a name cannot be used as a SQL identifier',
    fix: 'use letters, digits and _ in table and column names',
  },
  BAD_LITERAL: {
    exit: 2,
    when: 'a value to quote as SQL holds a control character',
    fix: 'remove the control character',
  },
  DUCKDB_FAILED: {
    exit: 1,
    when: 'a DuckDB statement failed',
    fix: "the message gives DuckDB's reason; report it if it is not about your input",
  },
  DUCKDB_OUT_OF_MEMORY: {
    exit: 1,
    when: 'DuckDB ran out of memory under its limit',
    fix: 'raise the memory limit the message names (duckdb.memory_limit or --memory-limit)',
  },
} as const satisfies ErrorCatalogue;
