// @asof/interop: exports for other ecosystems' layouts, Nixtla's long format and Qlib's binary store (issue 54).
export { INTEROP_ERRORS } from './error-codes.ts';
export { exportNixtla } from './export-nixtla.ts';
export { exportQlib } from './export-qlib.ts';
export type { Float32Report } from './float32-report.ts';
