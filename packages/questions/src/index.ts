// @asof/questions: forecast questions for model knowledge cutoffs, resolved on first releases, and their
// scores (issue 55).
export {
  type BootstrapOptions,
  bootstrapByCluster,
  type ClusterSums,
  clusterSums,
  percentileInterval,
  replicateDifference,
} from './bootstrap-by-cluster.ts';
export {
  type BuildQuestionScoresOptions,
  buildQuestionScores,
  type QuestionScoreCell,
  type QuestionScoreRow,
  type QuestionScores,
} from './build-question-scores.ts';
export { QUESTIONS_ERRORS } from './error-codes.ts';
export {
  DEFAULT_PER_FAMILY,
  generateQuestions,
  type QuestionsOptions,
  type QuestionsResult,
} from './generate-questions.ts';
export {
  type AnswersFileFacts,
  type ModelAnswers,
  type ParseAnswersOptions,
  parseAnswers,
} from './parse-answers.ts';
export { FAMILIES, type Family } from './question-candidate.ts';
export { readQuestionScores } from './read-question-scores.ts';
export {
  type Answer,
  type BaselineAnswerRow,
  QUESTION_FAMILIES,
  QUESTION_WINDOWS,
  QUESTIONS_KIND,
  type QuestionFamily,
  type QuestionRow,
  type QuestionsFolder,
  type QuestionWindow,
  type ResolutionRow,
  readQuestionsFolder,
  samePermutation,
} from './read-questions-folder.ts';
export {
  byT2Score,
  FAMILY_TITLES,
  formatScore,
  renderQuestionsLeaderboard,
} from './render-questions-leaderboard.ts';
export {
  brierTerm,
  errorReduction,
  FAMILY_SCORERS,
  type FamilyScorer,
  normalisedSpearman,
  relativeError,
  type ScoredInstance,
  scoreQuestionFamily,
  topKHit,
  truncatedUtility,
} from './score-question-family.ts';
export {
  QUESTION_BASELINE_NAMES,
  QUESTION_BOOTSTRAP_RESAMPLES,
  QUESTION_SCORES_KIND,
  type ScoreQuestionsOptions,
  type ScoreQuestionsResult,
  scoreQuestions,
} from './score-questions.ts';
