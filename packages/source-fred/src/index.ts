export * from './error-codes.ts';
export type { FredClient, FredClientOptions, FredSeriesBundle } from './fetch-fred.ts';
export {
  createFredClient,
  FRED_BASE_URL,
  MAX_VINTAGE_DATES_PER_REQUEST,
  planRealtimeWindows,
  resolveFredApiKey,
  stitchObservationChunks,
} from './fetch-fred.ts';
export { REALTIME_END_ALL, REALTIME_START_ALL } from './fetch-fred-pages.ts';
export { FredApiError } from './fred-api-error.ts';
export { FredConfig, SYNTHETIC_ALFRED_MAX_SERIES_YEARS } from './fred-config.ts';
export { isUsBusinessDay, nextUsBusinessDay, usFederalHolidays } from './fred-dates.ts';
export {
  FredErrorResponse,
  FredObservation,
  FredObservationsResponse,
  FredRelease,
  FredReleaseDatesResponse,
  FredReleasesResponse,
  FredSeriesMeta,
  FredSeriesResponse,
  FredVintageDatesResponse,
  parseFredPayload,
} from './fred-payload.ts';
export type { FredRawResponse } from './fred-raw-response.ts';
export { fredSource } from './fred-source.ts';
export type { SyntheticAlfred, SyntheticAlfredOptions } from './generate-synthetic-alfred.ts';
export {
  generateSyntheticAlfred,
  ingestSyntheticAlfred,
  SYNTHETIC_ALFRED_TEMPLATES,
} from './generate-synthetic-alfred.ts';
export type { FredLiveOptions, FredLiveSummary } from './ingest-fred-live.ts';
export { bundleToRawFiles, ingestFredLive } from './ingest-fred-live.ts';
export type {
  FredIngestOptions,
  FredIngestSummary,
  FredRawFile,
  FredSeriesIngestSummary,
} from './ingest-fred-raw-dir.ts';
export { ingestFredRawDir, ingestFredRawFiles } from './ingest-fred-raw-dir.ts';
export type {
  FredCatalogEntry,
  FredMapOptions,
  FredSnapshot,
  FredTaxonomyPlacement,
  SnapshotMapResult,
} from './map-fred-to-atomic.ts';
export {
  fredSeriesId,
  fredSeriesInput,
  listedFrequency,
  mapAlfredVintages,
  mapFredSnapshots,
  resolveRelease,
} from './map-fred-to-atomic.ts';
export type { FredPeriod } from './normalize-fred-period.ts';
export { fredFrequency, inferFredFrequency, normalizeFredPeriod } from './normalize-fred-period.ts';
export type {
  AlfredVintageRow,
  AlfredWithdrawal,
  ParsedAlfredObservations,
} from './parse-alfred-observations.ts';
export { isSnapshotResponse, parseAlfredObservations } from './parse-alfred-observations.ts';
export { parseFredValue } from './parse-fred-value.ts';
export type { FredgraphColumn, ParsedFredgraphCsv } from './parse-fredgraph-csv.ts';
export { parseFredgraphCsv } from './parse-fredgraph-csv.ts';
export { FRED_RAW_FILES, planFredUpdate } from './plan-fred-update.ts';
export type { PublicationLagRule, RuleAvailability } from './publication-lags.ts';
export {
  calendarReleaseDate,
  DEFAULT_PUBLICATION_LAGS,
  PUBLICATION_LAGS,
  publicationDate,
  publicationLagFor,
  ruleAvailableAt,
} from './publication-lags.ts';
export type { FredReleaseRef, ReleaseTime } from './release-times.ts';
export {
  findReleaseTime,
  RELEASE_TIMES,
  RELEASE_TIMES_BY_NAME,
  releaseAvailableAt,
  SERIES_RELEASE_IDS,
} from './release-times.ts';
