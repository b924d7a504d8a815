export { buildSegments, SEGMENTS_TABLE_SPEC } from './build-segments.ts';
export { CharacteristicsPool } from './characteristics/characteristics-pool.ts';
export { FINTSB_K } from './choose-dataset-size.ts';
export { PATTERNS_ERRORS } from './error-codes.ts';
export {
  exportFintsb,
  FINTSB_FIELDS,
  type FintsbField,
  type PatternStatistics,
  type PriceFieldUnit,
} from './export-fintsb.ts';
export { WORKERS_FROM_ROWS } from './measure-segments.ts';
export { segmentParams } from './segment-options.ts';
