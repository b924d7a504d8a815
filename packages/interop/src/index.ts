// @asof/interop: exports for other ecosystems' layouts, Nixtla's long format and Qlib's binary store (issue 54).
export { chooseQlibSeries, QLIB_FIELDS, type QlibPitSeries, type QlibSeries } from './choose-qlib-series.ts';
export {
  encodeQlibPit,
  PIT_NA_INDEX,
  PIT_RECORD_BYTES,
  type PitRecord,
  pitPeriodOffset,
} from './encode-qlib-pit.ts';
export { INTEROP_ERRORS } from './error-codes.ts';
export { type ExportOptions, type ExportResult, exportNixtla, type NixtlaFile } from './export-nixtla.ts';
export { exportQlib, float32Warnings } from './export-qlib.ts';
export { FLOAT32_TOLERANCE, type Float32Report, newFloat32Report, noteFloat32 } from './float32-report.ts';
export { QLIB_RESERVED_PREFIX, qlibSymbol } from './qlib-symbol.ts';
export { pitPeriod } from './write-qlib-pit.ts';
