export * from './error-codes.ts';
export type { RtdsmIngestSummary, RtdsmRawFile } from './ingest-rtdsm-raw-dir.ts';
export { ingestRtdsmRawDir, ingestRtdsmRawFiles } from './ingest-rtdsm-raw-dir.ts';
export type {
  RtdsmFile,
  RtdsmMapOptions,
  RtdsmMapResult,
  RtdsmSeriesSummary,
} from './map-rtdsm-vintages.ts';
export { mapRtdsmVintages, rtdsmSeriesId } from './map-rtdsm-vintages.ts';
export type { ParsedRtdsmCsv, RtdsmCell, RtdsmRow } from './parse-rtdsm-csv.ts';
export { parseRtdsmCell, parseRtdsmCsv } from './parse-rtdsm-csv.ts';
export { RtdsmConfig } from './rtdsm-config.ts';
export type { RtdsmPeriod, RtdsmVintage } from './rtdsm-dates.ts';
export {
  parseVintageColumn,
  RTDSM_POSTING_MARGIN_DAYS,
  rtdsmPeriod,
  rtdsmVintageAvailableAt,
  rtdsmYear,
} from './rtdsm-dates.ts';
export { rtdsmSource } from './rtdsm-source.ts';
