// @asof/questions: forecast questions for model knowledge cutoffs, resolved on first releases, and their
// scores (issue 55).
export { QUESTIONS_ERRORS } from './error-codes.ts';
export {
  DEFAULT_PER_FAMILY,
  generateQuestions,
  type QuestionsOptions,
  type QuestionsResult,
} from './generate-questions.ts';
export { FAMILIES, type Family } from './question-candidate.ts';
