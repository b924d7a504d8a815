import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/scoring's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const SCORING_ERRORS = {
  CSV_EMPTY: { exit: 2, when: 'a CSV file is empty', fix: 'write a header line and rows' },
  CSV_FIELD_COUNT: {
    exit: 2,
    when: 'a CSV row has more or fewer fields than the header',
    fix: 'quote a field that contains a comma',
  },
  CSV_FIELD_TOO_LONG: {
    exit: 2,
    when: 'a CSV field is longer than asof accepts (most likely an unclosed quote)',
    fix: 'close the quote that opens there',
  },
  CSV_TEXT_AFTER_QUOTE: {
    exit: 2,
    when: 'a CSV field has text after its closing quote',
    fix: 'inside a quoted field write a quote as ""',
  },
  CSV_UNTERMINATED_QUOTE: {
    exit: 2,
    when: 'a quoted CSV field never closes',
    fix: 'close it with " (a quote inside one is written "")',
  },
  FORECAST_AMBIGUOUS_ORIGIN: {
    exit: 2,
    when: "a forecast row's origin is the period label of several origins of the series",
    fix: "write the origin's full instant",
  },
  FORECAST_BAD_COLUMN: {
    exit: 2,
    when: 'a quantile or sample column name is not q<level> (0 < level < 1) or s<n>',
    fix: 'name quantile columns like q0.05 and sample columns s1…sN',
  },
  FORECAST_BAD_MODEL: {
    exit: 2,
    when: "a forecast row's model name is empty or not text",
    fix: 'name the model on every row',
  },
  FORECAST_BAD_NUMBER: {
    exit: 2,
    when: 'a forecasts CSV cell is not a number in decimal or exponent notation',
    fix: 'write the value (hexadecimal, Infinity and NaN are refused), or leave the cell empty',
  },
  FORECAST_BAD_ORIGIN: {
    exit: 2,
    when: "a forecast row's origin is neither a period label nor an instant",
    fix: 'write the origin as in the split (e.g. 2024-01-31 or 2024-01-31T00:00:00Z)',
  },
  FORECAST_BAD_STEP: {
    exit: 2,
    when: "a forecast row's step is not an integer in 1…horizon",
    fix: "write steps 1…h of the origin's horizon",
  },
  FORECAST_BASELINE_MISMATCH: {
    exit: 2,
    when: "a submitted model named like a baseline differs from the scorer's own baseline",
    fix: "rename your model: baseline names are reserved (write them with 'asof baselines')",
  },
  FORECAST_CONTROL_CHARACTER: {
    exit: 2,
    when: 'a forecast text field contains a control character',
    fix: 'use printable characters',
  },
  FORECAST_CROSSING_QUANTILES: {
    exit: 2,
    when: "a forecast row's quantiles decrease as the level rises",
    fix: 'make quantiles non-decreasing in the level',
  },
  FORECAST_DUPLICATE: {
    exit: 2,
    when: 'two forecast rows for one model, series, origin and step',
    fix: 'keep one',
  },
  FORECAST_DUPLICATE_COLUMN: {
    exit: 2,
    when: 'a forecasts file has a column twice',
    fix: 'keep one of each',
  },
  FORECAST_DUPLICATE_MODEL: {
    exit: 2,
    when: "one model name is submitted twice (two files, or a baseline's name)",
    fix: 'give each model one name',
  },
  FORECAST_EMPTY: {
    exit: 2,
    when: 'a forecasts file has no rows',
    fix: 'write one row per (model, series_id, origin, step) you forecast',
  },
  FORECAST_FORMAT: {
    exit: 2,
    when: "the forecasts file's extension is neither .csv nor .parquet",
    fix: 'write a .csv or .parquet file (the format is taken from the extension)',
  },
  FORECAST_MISSING_COLUMN: {
    exit: 2,
    when: 'a forecasts file lacks a required column',
    fix: 'add the columns the message lists',
  },
  FORECAST_MISSING_STEPS: {
    exit: 2,
    when: 'a model forecasts an origin but not every step of its horizon',
    fix: 'forecast the whole path 1…h of each origin you cover, or none of it',
  },
  FORECAST_MIXED_COLUMNS: {
    exit: 2,
    when: 'a model gives quantiles or samples on some rows but not on its first',
    fix: 'give them on every row or on none',
  },
  FORECAST_NON_FINITE: {
    exit: 2,
    when: 'a forecast value, quantile or sample is NaN or infinite',
    fix: 'write a finite number',
  },
  FORECAST_NOT_A_FILE: {
    exit: 2,
    when: 'the forecasts path is a folder',
    fix: 'pass the .csv or .parquet file itself',
  },
  FORECAST_NOT_FOUND: {
    exit: 2,
    when: 'no forecasts file at the given path',
    fix: 'check the path (a .csv or .parquet file from your model or from asof baselines)',
  },
  FORECAST_NOT_POSITIVE: {
    exit: 2,
    when: 'a forecast is ≤ 0 for a series positive throughout the split (Tycheon scores log returns)',
    fix: 'forecast values > 0 (e.g. simulate log returns)',
  },
  FORECAST_OUT_OF_RANGE: {
    exit: 2,
    when: "a forecast is more than 1e100 times the series' smallest value, so its returns would overflow",
    fix: 'forecast the series in its own units',
  },
  FORECAST_UNKNOWN_COLUMN: {
    exit: 2,
    when: 'a forecasts file has a column asof does not know',
    fix: 'keep the required columns, q<level> (e.g. q0.05) and s1…sN',
  },
  FORECAST_UNKNOWN_ORIGIN: {
    exit: 2,
    when: "a forecast row's origin is not an origin of that series in the split",
    fix: "forecast only the split's origins (origins.parquet lists them)",
  },
  FORECAST_UNKNOWN_SERIES: {
    exit: 2,
    when: "a forecast row's series_id is not in the split's task set",
    fix: "forecast only the split's evaluation series",
  },
  FORECAST_UNREADABLE: { exit: 2, when: 'the forecasts file cannot be read', fix: 'check its permissions' },
  METRIC_BAD_QUANTILE_GRID: {
    exit: 2,
    when: 'quantile levels are not strictly increasing inside (0, 1)',
    fix: 'pass levels such as 0.05…0.95',
  },
  METRIC_CROSSING_QUANTILES: {
    exit: 2,
    when: 'CRPS from quantiles got quantiles that decrease with the level',
    fix: 'sort or rearrange the quantiles before scoring',
  },
  METRIC_LENGTH_MISMATCH: {
    exit: 2,
    when: 'a metric function got arrays of different lengths',
    fix: 'pass arrays aligned on the same origins',
  },
  METRIC_NONPOSITIVE_VARIANCE: {
    exit: 2,
    when: 'QLIKE got a forecast or realised variance ≤ 0',
    fix: 'drop origins whose realised variance is 0, or floor the forecast variance',
  },
  METRIC_NON_FINITE: {
    exit: 2,
    when: 'a metric function got a NaN or infinite value',
    fix: 'drop that origin (or fix the forecast or target) before scoring',
  },
  METRIC_NO_CONVERGENCE: {
    exit: 2,
    when: 'a special function (incomplete beta) did not converge for its arguments',
    fix: 'a numerical edge case: report it with the values',
  },
  METRIC_TOO_FEW_ORIGINS: {
    exit: 2,
    when: 'a Diebold–Mariano test got fewer than 2 paired losses',
    fix: 'score more origins',
  },
  METRIC_TOO_FEW_QUANTILES: {
    exit: 2,
    when: 'CRPS from quantiles got fewer than 2 levels',
    fix: 'give at least 2 quantile levels',
  },
  METRIC_TOO_FEW_SAMPLES: {
    exit: 2,
    when: 'CRPS from samples got fewer than 2 samples',
    fix: 'give at least 2 samples (s1, s2…)',
  },
  METRIC_ZERO_REFERENCE: {
    exit: 2,
    when: 'a relative-change metric met a reference value of 0',
    fix: 'drop the origin or score the series with difference-based metrics',
  },
  PARQUET_UNREADABLE: {
    exit: 2,
    when: 'a forecasts .parquet file cannot be read as Parquet',
    fix: 'write forecasts as CSV or valid Parquet',
  },
  RANK_UNKNOWN_METRIC: {
    exit: 2,
    when: 'rankAggregate got a metric it knows no direction for',
    fix: 'use one of the known metrics the message lists',
  },
  RESULTS_NOT_A_SCORE: {
    exit: 2,
    when: "the manifest beside the results.json is not a score's",
    fix: "pass the results.json 'asof score --out DIR' wrote",
  },
  RESULTS_NOT_LISTED: {
    exit: 2,
    when: 'the results.json is not the one its manifest lists',
    fix: 'pass the results document the manifest lists',
  },
  RESULTS_NO_MANIFEST: {
    exit: 2,
    when: 'no manifest.json beside the results.json, so its bytes cannot be checked',
    fix: "pass the results.json inside the folder 'asof score --out DIR' wrote (score again if older)",
  },
  SCORE_BAD_HORIZON: {
    exit: 2,
    when: "a split origin's horizon is not an integer ≥ 1",
    fix: "remake the split with 'asof split'",
  },
  SCORE_BAD_ORIGIN: {
    exit: 2,
    when: 'an origin is not a date or an instant',
    fix: 'write e.g. 2024-01-31 or 2024-01-31T00:00:00Z',
  },
  SCORE_BAD_STEP: {
    exit: 2,
    when: "a target's step is outside 1…horizon of its origin",
    fix: "the split's targets and origins disagree: remake the split",
  },
  SCORE_BAD_TARGETS: {
    exit: 2,
    when: "the panel's target slots do not add up to the sum of horizons",
    fix: 'lay targets out origin-major (a caller bug)',
  },
  SCORE_DUPLICATE_ORIGIN: {
    exit: 2,
    when: "a (series, origin) appears twice in the split's origins",
    fix: 'remake the split (each series and origin once)',
  },
  SCORE_DUPLICATE_TARGET: {
    exit: 2,
    when: 'a split has two targets for one series, origin and step',
    fix: 'remake the split (one value per step)',
  },
  SCORE_NON_FINITE: {
    exit: 2,
    when: "a split origin's last_value is NaN or infinite",
    fix: "remake the split with 'asof split'",
  },
  SCORE_NOT_A_SPLIT: {
    exit: 2,
    when: "asof score was given a manifest that is not a split's",
    fix: "pass the manifest.json of a split made by 'asof split'",
  },
  SCORE_NO_FORECASTS: {
    exit: 2,
    when: 'asof score was given no forecasts file',
    fix: 'pass at least one --forecasts FILE',
  },
  SCORE_NO_TASKS: {
    exit: 2,
    when: 'the split has no tasks table',
    fix: 'pass the parent universe manifest (--universe) so its tasks can be read',
  },
  SCORE_ORIGINS_UNSORTED: {
    exit: 2,
    when: "the panel's origins are not sorted by series then time",
    fix: 'sort origins by series, then time, without duplicates (a caller bug)',
  },
  SCORE_OVERFLOW: {
    exit: 1,
    when: 'a metric overflowed a double: a series has values too close to 0 beside large ones',
    fix: 'leave such series out of the split (asof split --series)',
  },
  SCORE_TARGET_WITHOUT_ORIGIN: {
    exit: 2,
    when: 'a split target has no origin row',
    fix: "the split's origins and targets disagree: remake the split",
  },
  SCORE_WINDOW_EMPTY: {
    exit: 2,
    when: '--window names a window with no scored origin in the split',
    fix: 'pick a window the message lists, or score without --window',
  },
  SCORE_WINDOW_NOT_COVERED: {
    exit: 2,
    when: 'a model forecasts no origin of the --window asked for',
    fix: "score without --window, or give that model forecasts for the window's origins",
  },
  SCORE_WRONG_UNIVERSE: {
    exit: 2,
    when: '--universe is not the universe the split was made from',
    fix: "pass the split's parent universe",
  },
  SERIES_WITHOUT_TASKS: {
    exit: 'warning',
    when: 'series with origins but no task rows were not scored',
    fix: 'nothing if expected; otherwise remake the split from a universe whose tasks cover them',
  },
  SPLIT_BAD_STEP_INDEX: {
    exit: 2,
    when: "a split input's grid step is not on the grid at or before its origin's step",
    fix: "the split's origins and inputs disagree: remake the split",
  },
  SPLIT_BAD_WINDOW: {
    exit: 2,
    when: "a split origin's window is not a scoring window",
    fix: "remake the split with 'asof split --model-cutoff … --run-date …'",
  },
  SPLIT_NO_ORIGIN_VALUE: {
    exit: 2,
    when: 'an origin of the split has no input history (no inputs rows, no last_value)',
    fix: 'remake the split: the baselines need the last value at the origin',
  },
  SPLIT_NO_STEP_INDEX: {
    exit: 2,
    when: "the split gives no grid step to place a series' inputs",
    fix: "remake the split with this version of 'asof split'",
  },
  SPLIT_TABLE_MISSING: {
    exit: 2,
    when: "the split's manifest lists no output for a table scoring needs",
    fix: "score a split made by 'asof split'",
  },
  SUBMITTED_BASELINES_MATCH: {
    exit: 'warning',
    when: "submitted baseline forecasts equal the scorer's own baselines on every point",
    fix: 'nothing: each is scored once',
  },
  TASKS_WITHOUT_ORIGINS: {
    exit: 'warning',
    when: 'task rows for series with no origin in the split were not scored',
    fix: "nothing if expected (the split's filters left those series out)",
  },
  TASK_STEPS_UNDEFINED: {
    exit: 'warning',
    when: 'task rows whose p or h is not defined at the series frequency were skipped',
    fix: 'nothing if expected; check registry horizons.tsv for that frequency',
  },
  TYCHEON_SCALED_CHANGE: {
    exit: 'warning',
    when: 'series with a value ≤ 0 have no log return: their Tycheon metrics use the scaled change',
    fix: "nothing: read those series' Tycheon metrics as scaled changes",
  },
} as const satisfies ErrorCatalogue;
