// @asof/split's public API: splitting a universe, serving an origin's history under the look-ahead guard,
// running forecasters over a split, and writing the per-origin baseline forecasts. Everything else
// (the models, the output specs, the invariants) is internal to the package.
export { defaultBaselineThreads, MAX_DEFAULT_BASELINE_THREADS } from './baselines-pool.ts';
export { ORIGINS_POLICIES, type OriginsPolicy } from './check-dm-compatible.ts';
export { driftForecaster } from './drift-forecaster.ts';
export { SPLIT_ERRORS } from './error-codes.ts';
export {
  type GridStep,
  type GuardCounts,
  type HistoryRow,
  HistoryStore,
  OriginView,
  type StoredHistoryRow,
} from './history-store.ts';
export { LookaheadError } from './lookahead-error.ts';
export { type Embargo, parseEmbargo, subtractEmbargo } from './parse-embargo.ts';
export {
  type Forecaster,
  type ForecastRow,
  type ForecastTask,
  randomWalkForecaster,
  runForecaster,
} from './run-forecaster.ts';
export { parseInstantArg, runSplit, type SplitOptions, type SplitResult } from './run-split.ts';
export type { SeriesFilters } from './series-filter-sql.ts';
export { LAYOUTS, type Layout, TARGET_VINTAGES, type TargetVintage } from './split-models.ts';
export {
  type BaselineForecastsOptions,
  type BaselineForecastsResult,
  writeBaselineForecasts,
} from './write-baseline-forecasts.ts';
