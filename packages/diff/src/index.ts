export {
  type ChangeKind,
  diffUniverses,
  type RowChange,
  type SeriesDiff,
  type UniverseDiff,
} from './diff-universes.ts';
export { DIFF_ERRORS } from './error-codes.ts';
export { vendorRestatementWarnings } from './vendor-restatement-warnings.ts';
