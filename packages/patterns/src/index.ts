export {
  buildSegments,
  SEGMENTS_ORDER_BY,
  SEGMENTS_TABLE_SPEC,
} from './build-segments.ts';
export { CharacteristicsPool } from './characteristics/characteristics-pool.ts';
export { FINTSB_K } from './choose-dataset-size.ts';
export * from './error-codes.ts';
export type {
  ExportFintsbOptions,
  ExportFintsbResult,
  FintsbField,
  FintsbPattern,
  PatternStatistics,
  PriceFieldUnit,
} from './export-fintsb.ts';
export { exportFintsb, FINTSB_FIELDS, FINTSB_PATTERNS } from './export-fintsb.ts';
export { WORKERS_FROM_ROWS } from './measure-segments.ts';
export type { SegmentOptions } from './segment-options.ts';
export { DEFAULT_GRID_EPOCH, DEFAULT_SEGMENT_LENGTHS, segmentParams } from './segment-options.ts';
