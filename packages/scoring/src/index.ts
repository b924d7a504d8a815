// FinVerse (seeds/004 §3.2, §4.2)

// Scoring pipeline (issue 9): input contract, baselines, assembly, results
export {
  alignForecasts,
  type CodedText,
  type ForecastTable,
  forecastRowsToTable,
  isSampleColumn,
  type ModelForecasts,
  quantileLevelOf,
  type TextColumn,
} from './align-forecasts.ts';
// The scorer's baseline cache (the baselines themselves are @asof/baselines')
export {
  type BaselineKeyParts,
  baselineCacheKey,
  decodeBaselines,
  encodeBaselines,
  type ScoreStore,
  scorerCodeSha256,
} from './baseline-cache.ts';
export {
  buildEvaluationPanel,
  type EvaluationPanel,
  type OriginColumns,
  originKeyOf,
  panelFromColumns,
  type TargetColumns,
} from './build-evaluation-panel.ts';
export * from './error-codes.ts';
export { escapeMarkdown } from './escape-markdown.ts';
export { ForecastFileRow, forecastJsonSchema } from './forecast-schema.ts';
export {
  type BaselineWinGroup,
  groupBaselinesWin,
  TOP_CELLS_PER_GROUP,
  unitCategory,
} from './group-baselines-win.ts';
export {
  LEADERBOARD_SECTION_IDS,
  type LeaderboardSection,
  type LeaderboardSectionId,
  leaderboardHeading,
  leaderboardSections,
  type PooledIcRow,
  pooledIcTable,
} from './leaderboard-sections.ts';
export { LOSS_TABLE_RULE, lossTable } from './loss-table.ts';
export {
  type FittedBaselineNotes,
  type FittedBaselineOptions,
  makeBaselineForecasts,
  makePanelBaselines,
} from './make-baseline-forecasts.ts';
export { makeRandomWalkPanel, maseOriTask, type RandomWalkPanel } from './make-random-walk-panel.ts';
export { averageRanks } from './metrics/average-ranks.ts';
export { type BacktestStatistics, backtestStatistics } from './metrics/backtest-statistics.ts';
// Shared building blocks
export type { NumericArray } from './metrics/check-arrays.ts';
export {
  type CostDiagnostic,
  costDiagnostic,
  DEFAULT_TRADING_COSTS,
  type TradingCosts,
} from './metrics/cost-diagnostic.ts';
export { crpsGaussian } from './metrics/crps-gaussian.ts';
export { crpsQuantiles } from './metrics/crps-quantiles.ts';
export { crpsSamples } from './metrics/crps-samples.ts';
export { type DeltaHitRateOptions, deltaHitRate } from './metrics/delta-hit-rate.ts';
export { type Delta2HitRateOptions, delta2HitRate } from './metrics/delta2-hit-rate.ts';
export { type DieboldMarianoResult, dieboldMariano, squaredErrors } from './metrics/diebold-mariano.ts';
export { directionalAccuracy } from './metrics/directional-accuracy.ts';
// FinTSB (seeds/000 §4.3, §5.2)
export { type FintsbSignalMetrics, fintsbSignalMetrics } from './metrics/fintsb-signal-metrics.ts';
export { NO_CHANGE_TOLERANCE, noChangeReturn } from './metrics/float-tolerance.ts';
export { hitRate } from './metrics/hit-rate.ts';
export { informationCoefficient, meanInformationCoefficient } from './metrics/information-coefficient.ts';
export { type IntervalCoverage, intervalCoverage } from './metrics/interval-coverage.ts';
export { mae } from './metrics/mae.ts';
export { maseAbs } from './metrics/mase-abs.ts';
export { maseOri } from './metrics/mase-ori.ts';
export { maseRel } from './metrics/mase-rel.ts';
export { maseVsRandomWalk } from './metrics/mase-vs-random-walk.ts';
export { METRIC_DIRECTIONS, type MetricName } from './metrics/metric-directions.ts';
export { mse } from './metrics/mse.ts';
export { pearsonCorrelation } from './metrics/pearson-correlation.ts';
export {
  type PortfolioMetricsOptions,
  type PortfolioMetricsResult,
  type PortfolioOffsetResult,
  portfolioMetrics,
} from './metrics/portfolio-metrics.ts';
export { qlike, realizedVariance } from './metrics/qlike.ts';
export {
  type MetricDirection,
  type RankAggregateMetric,
  type RankAggregateModel,
  type RankAggregateResult,
  type RankAggregateScore,
  rankAggregate,
} from './metrics/rank-aggregate.ts';
export { relativeChange } from './metrics/relative-change.ts';
// Tycheon methodology (seeds/002)
export { rmse } from './metrics/rmse.ts';
export { spearmanCorrelation } from './metrics/spearman-correlation.ts';
export { type TopkBacktestOptions, type TopkBacktestResult, topkBacktest } from './metrics/topk-backtest.ts';
export {
  type TopkDropBacktestOptions,
  type TopkDropBacktestResult,
  topkDropBacktest,
} from './metrics/topk-drop-backtest.ts';
export { type Verdict, verdictVsRandomWalk } from './metrics/verdict-vs-random-walk.ts';
export { CsvParser, parseCsv, streamCsvFile } from './parse-csv.ts';
export { instantOf, parseInstant } from './parse-instant.ts';
export {
  RANDOM_WALK_MIN_RETURNS,
  RANDOM_WALK_SIGMA_RETURNS,
  type RandomWalkSigma,
  randomWalkSigma,
  randomWalkSigmaReturns,
  type VolatilityHistory,
} from './random-walk-sigma.ts';
export {
  checkForecastBounds,
  checkForecastsReadable,
  type ForecastsFormat,
  readForecasts,
} from './read-forecasts.ts';
export { readParquetColumns } from './read-parquet-columns.ts';
export { readScoreResultsBytes } from './read-score-results.ts';
export {
  instantText,
  readSplitTables,
  readTasksTable,
  type SplitData,
  type SplitLoader,
  type TableFiles,
} from './read-split-tables.ts';
export {
  coverageSummary,
  isHeadline,
  overallRankingLine,
  rankedIn,
  renderLeaderboard,
  type UnitVerdictCounts,
  unitVerdictCounts,
} from './render-leaderboard.ts';
export { WINDOW_MEANING, windowSummary } from './render-windows.ts';
export {
  Coverage,
  LossTable,
  MemorisationGap,
  MetricValue,
  PooledValue,
  RankBlock,
  RunRecord,
  resultsJsonSchema,
  ScoringConfig,
  ScoringResults,
  VerdictRow,
  WindowScores,
} from './results-schema.ts';
export {
  COMPARISON_RULES,
  checkOverlap,
  type OverlapCheck,
  resolveScoringConfig,
  SCORER_VERSION,
  type ScoreOptions,
  type ScorePanelInput,
  scorePanel,
  seriesFrequencyOf,
  unitKeyOf,
} from './score-panel.ts';
export { originsPolicyOf, type ScoreSplitOptions, scoreSplit } from './score-split.ts';
export {
  type ForecastRow,
  type OriginRow,
  SCORING_WINDOWS,
  type ScoringWindow,
  type TargetRow,
  type TaskRow,
} from './score-types.ts';
export { stepsBetween } from './steps-between.ts';
export {
  type HistoryColumns,
  type WholeHistory,
  type WholeHistoryQuery,
  wholeHistoryAt,
} from './whole-history-at.ts';
export { SCORES_KIND, type ScoredSplit, type WriteResultsOptions, writeResults } from './write-results.ts';
