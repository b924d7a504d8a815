import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/patterns's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const PATTERNS_ERRORS = {
  BAD_SEGMENT_OPTIONS: {
    exit: 2,
    when: 'a segment option is out of range (segment length, up/down share)',
    fix: 'give the value the message expects (lengths 0 or ≥ 10, shares in [0, 1], down below up)',
  },
  NOT_ENOUGH_SEGMENTS: {
    exit: 2,
    when: 'no dataset size k gives FinTSB datasets of every pattern from the labelled segments',
    fix: 'lower the threshold, or try another --field or --frequency',
  },
  NO_FINTSB_SERIES: {
    exit: 2,
    when: 'the universe has no labelled segments for the chosen price field and frequency',
    fix: 'try another --field or --frequency',
  },
  NO_SEGMENTS: {
    exit: 2,
    when: "the universe's manifest lists no segments file (segments.parquet)",
    fix: 'rebuild the universe with this asof (it writes segments)',
  },
  PRICE_FIELDS_CONFLICT: {
    exit: 2,
    when: 'one price unit is listed as two OHLCV fields',
    fix: 'give the unit one field (check price-kinds.tsv and embedded.tsv)',
  },
  SEGMENT_CHARACTERISTICS_FAILED: {
    exit: 1,
    when: 'a segment-characteristics worker failed or exited',
    fix: 'a bug in @asof/patterns unless memory ran out: report it with the command',
  },
  SEGMENT_MOMENTS_MISSING: {
    exit: 1,
    when: 'labelled segments came back without return moments (two size rules disagree)',
    fix: 'a bug in @asof/patterns: report it with the universe',
  },
  SEGMENT_ROWS_MALFORMED: {
    exit: 1,
    when: 'a measured segment came back with unequal step, timestamp and value counts',
    fix: 'a bug in @asof/patterns: report it with the universe',
  },
} as const satisfies ErrorCatalogue;
