import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/split's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const SPLIT_ERRORS = {
  BASELINES_NOT_A_SPLIT: {
    exit: 2,
    when: "asof baselines was given a manifest that is not a split's",
    fix: "pass the manifest.json of a split made by 'asof split'",
  },
  BASELINES_NO_HISTORY: {
    exit: 2,
    when: 'an origin of the split has no history public at the origin, so a baseline has no forecast',
    fix: "the split's origins and inputs disagree: remake the split",
  },
  BASELINES_SPLIT_INCOMPLETE: {
    exit: 2,
    when: "the split's manifest lists no origins file or no history file (train_observations, inputs)",
    fix: "remake the split with 'asof split' (a split has both)",
  },
  BASELINES_SPLIT_OUTDATED: {
    exit: 2,
    when: "the split's inputs carry no step_index (an older 'asof split'), so late-released series cannot be placed on the grid",
    fix: "remake the split with 'asof split'",
  },
  BASELINES_WORKER_FAILED: {
    exit: 1,
    when: 'a worker thread fitting ARIMA or GARCH for asof baselines died (out of memory, killed) or failed',
    fix: 'run again, or with --threads 1 to fit on the main thread',
  },
  CUTOFF_AFTER_RUN_DATE: {
    exit: 2,
    when: '--model-cutoff is after --run-date',
    fix: 'give a cutoff on or before the run date',
  },
  DM_NEEDS_NON_OVERLAPPING: {
    exit: 2,
    when: '--dm with overlapping origins: the Diebold–Mariano statistic would be invalid',
    fix: 'use --origins non_overlapping or drop --dm',
  },
  EMBARGO_INVALID: {
    exit: 2,
    when: '--embargo is neither a number of days nor a date duration',
    fix: 'use e.g. 30, P30D, P2W, P1M or P1Y',
  },
  EMBARGO_TOO_LONG: {
    exit: 2,
    when: '--embargo reaches before the year 1',
    fix: 'use an embargo of days to a few years, e.g. 30, P30D or P1Y',
  },
  EVAL_START_INVALID: {
    exit: 2,
    when: '--eval-start is not a date YYYY-MM-DD',
    fix: 'use a date, e.g. 2020-01-01',
  },
  LAYOUT_INVALID: {
    exit: 2,
    when: '--layout is not a known layout',
    fix: 'use one of the layouts the message lists',
  },
  LOOKAHEAD: {
    exit: 1,
    when: 'a forecaster asked for history after its origin',
    fix: 'a bug in the forecaster: read only what was public at the origin',
  },
  LOOKBACK_INVALID: {
    exit: 2,
    when: 'a lookback is not a whole number of steps ≥ 1',
    fix: 'use a whole number of steps ≥ 1',
  },
  ORIGINS_INVALID: {
    exit: 2,
    when: '--origins is not a known origins policy',
    fix: 'use one of the policies the message lists',
  },
  PARENT_INCOMPLETE: {
    exit: 2,
    when: "the universe's observations are not laid out by frequency",
    fix: "split a universe built by 'asof build'",
  },
  PER_ORIGIN_TOO_LARGE: {
    exit: 2,
    when: 'per-origin inputs would exceed the row limit',
    fix: 'use --layout compact or --origins non_overlapping',
  },
  RUN_DATE_REQUIRED: {
    exit: 2,
    when: '--model-cutoff was given without --run-date',
    fix: 'add --run-date: T2 and T3 are defined by what is known at the run date',
  },
  SPLIT_FILTER_EMPTY: {
    exit: 2,
    when: "the split's --series/--unit filters keep no series",
    fix: 'use names the universe has (the message lists its units)',
  },
  SPLIT_INVARIANT_VIOLATED: {
    exit: 1,
    when: 'the split broke one of its own invariants',
    fix: 'a bug in @asof/split: report it with the command',
  },
  SPLIT_SERIES_UNKNOWN: {
    exit: 2,
    when: 'a --series of asof split names nothing in the universe',
    fix: "list series with 'asof series --data <universe folder> --search TEXT'",
  },
  SPLIT_UNIT_UNKNOWN: {
    exit: 2,
    when: 'a --unit of asof split names no unit of the universe',
    fix: "list units with 'asof taxonomy --coverage <universe>/manifest.json'",
  },
  SPLIT_WINDOW_EMPTY: {
    exit: 'warning',
    when: 'a T2/T3 window has no origin with the given --model-cutoff and --run-date',
    fix: 'nothing if expected; move the cutoff or run date to fill it',
  },
  TARGET_VINTAGE_INVALID: {
    exit: 2,
    when: '--target-vintage is not a known target vintage',
    fix: 'use one of the values the message lists',
  },
} as const satisfies ErrorCatalogue;
