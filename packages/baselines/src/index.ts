// @asof/baselines: the one implementation of the baselines every forecast is compared with (issue 53 item 3):
// random walk, drift and seasonal naive (point paths), ARIMA and GARCH(1,1) (paths with quantiles); their
// numerics are @asof/stats'. The scorer (@asof/scoring) and `asof baselines` (@asof/split) both call them.
export { ArimaBaseline, DEFAULT_REFIT_EVERY, type RefitOptions, RefitSchedule } from './arima-baseline.ts';
export { autoArima } from './auto-arima.ts';
export {
  BASELINE_MODELS,
  type BaselineModel,
  FITTED_BASELINE_MODELS,
  type FittedBaselineModel,
  isFittedBaseline,
  POINT_BASELINE_MODELS,
  type PointBaselineModel,
  RANDOM_WALK,
} from './baseline-models.ts';
export { baselinePath } from './baseline-path.ts';
export {
  BASELINE_QUANTILE_LEVELS,
  type BaselinePath,
  type FittedBaseline,
  placeOnGrid,
  pointMassPath,
  quantileColumnName,
} from './baseline-quantiles.ts';
export { driftPath } from './drift-path.ts';
export { BASELINES_ERRORS } from './error-codes.ts';
export { fitArima } from './fit-arima.ts';
export { fitGarch } from './fit-garch.ts';
export { forecastArima } from './forecast-arima.ts';
export { GARCH_MIN_RETURNS, GarchBaseline, type GarchBaselineOptions } from './garch-baseline.ts';
export { MAX_HISTORY_TAIL } from './max-history-tail.ts';
export { gaussian, mulberry32 } from './mulberry32.ts';
export { SEASON_LENGTH, seasonalNaivePath } from './seasonal-naive-path.ts';
