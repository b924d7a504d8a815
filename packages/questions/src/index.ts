// @asof/questions: forecast questions for model knowledge cutoffs, resolved on first releases, and their
// scores (issue 55).
export { QUESTIONS_ERRORS } from './error-codes.ts';
