export {
  alignForecasts,
  type ForecastTable,
  forecastRowsToTable,
  isSampleColumn,
  quantileLevelOf,
  type TextColumn,
} from './align-forecasts.ts';
export type { ScoreStore } from './baseline-cache.ts';
export { buildEvaluationPanel, type EvaluationPanel, panelFromColumns } from './build-evaluation-panel.ts';
export { SCORING_ERRORS } from './error-codes.ts';
export { forecastJsonSchema } from './forecast-schema.ts';
export { type BaselineWinGroup, groupBaselinesWin, TOP_CELLS_PER_GROUP } from './group-baselines-win.ts';
export { type LeaderboardSectionId, leaderboardSections, pooledIcTable } from './leaderboard-sections.ts';
export { makePanelBaselines } from './make-baseline-forecasts.ts';
export { makeRandomWalkPanel, maseOriTask } from './make-random-walk-panel.ts';
export { crpsSamples } from './metrics/crps-samples.ts';
export { deltaHitRate } from './metrics/delta-hit-rate.ts';
export { delta2HitRate } from './metrics/delta2-hit-rate.ts';
export { dieboldMariano, squaredErrors } from './metrics/diebold-mariano.ts';
export { directionalAccuracy } from './metrics/directional-accuracy.ts';
export { hitRate } from './metrics/hit-rate.ts';
export { mae } from './metrics/mae.ts';
export { maseAbs } from './metrics/mase-abs.ts';
export { maseOri } from './metrics/mase-ori.ts';
export { maseRel } from './metrics/mase-rel.ts';
export { maseVsRandomWalk } from './metrics/mase-vs-random-walk.ts';
export { mse } from './metrics/mse.ts';
export { relativeChange } from './metrics/relative-change.ts';
export { rmse } from './metrics/rmse.ts';
export { type Verdict, verdictVsRandomWalk } from './metrics/verdict-vs-random-walk.ts';
export { RANDOM_WALK_SIGMA_RETURNS, randomWalkSigma } from './random-walk-sigma.ts';
export { checkForecastBounds, checkForecastsReadable, readForecasts } from './read-forecasts.ts';
export { readParquetColumns } from './read-parquet-columns.ts';
export { readScoreResultsBytes } from './read-score-results.ts';
export { readSplitTables, readTasksTable, type SplitData } from './read-split-tables.ts';
export {
  coverageSummary,
  isHeadline,
  overallRankingLine,
  rankedIn,
  renderLeaderboard,
  unitVerdictCounts,
} from './render-leaderboard.ts';
export { WINDOW_MEANING, windowSummary } from './render-windows.ts';
export { RankBlock, RunRecord, resultsJsonSchema, ScoringResults, WindowScores } from './results-schema.ts';
export { scorePanel } from './score-panel.ts';
export { scoreSplit } from './score-split.ts';
export {
  type OriginRow,
  SCORING_WINDOWS,
  type ScoringWindow,
  type TargetRow,
  type TaskRow,
} from './score-types.ts';
export { wholeHistoryAt } from './whole-history-at.ts';
export { type ScoredSplit, writeResults } from './write-results.ts';
