export * from './error-codes.ts';
export { FredmdConfig } from './fredmd-config.ts';
export type { FredmdPeriod, FredmdVintage } from './fredmd-dates.ts';
export {
  checkVintage,
  FREDMD_POSTING_MARGIN_DAYS,
  fredmdPeriod,
  fredmdVintageAvailableAt,
  vintageFromName,
} from './fredmd-dates.ts';
export type { FredmdPlacement, FredmdPlacementOptions } from './fredmd-series.ts';
export { FredmdPlacements, fredmdSeriesId, TCODES } from './fredmd-series.ts';
export { fredmdSource } from './fredmd-source.ts';
export type {
  FredmdIngestOptions,
  FredmdIngestSummary,
  FredmdRawFile,
} from './ingest-fredmd-raw-dir.ts';
export { ingestFredmdRawDir, ingestFredmdRawFiles } from './ingest-fredmd-raw-dir.ts';
export type {
  FredmdMapOptions,
  FredmdMapResult,
  FredmdSeriesSummary,
  FredmdVintageFile,
} from './map-fredmd-vintages.ts';
export { mapFredmdVintages } from './map-fredmd-vintages.ts';
export type {
  FredmdCell,
  FredmdColumn,
  FredmdDataset,
  FredmdRow,
  ParsedFredmdCsv,
} from './parse-fredmd-csv.ts';
export { parseFredmdCell, parseFredmdCsv } from './parse-fredmd-csv.ts';
