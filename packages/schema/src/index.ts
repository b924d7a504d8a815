export {
  AsofError,
  InputError,
  rebuiltWorkerError,
  type WorkerErrorReply,
  workerErrorReply,
} from './asof-error.ts';
export {
  AccountingTally,
  type AtomicSink,
  type BuildWarning,
  CollectingSink,
  type CorporateActionRow,
  emitVintageRows,
  type IngestAccounting,
  LISTED_UNIVERSE,
  MEMBERSHIP_SOURCES,
  type MembershipRow,
  type Micros,
  type ObservationColumns,
  type ObservationRow,
  OUT_OF_SCOPE_REASONS,
  observationRowsOf,
  type RawInput,
  type WithdrawalRow,
} from './atomic-sink.ts';
export { asOfView } from './collected-as-of-view.ts';
export { commandSeconds, elapsedStamp, startCommandClock } from './command-clock.ts';
export { compareRawInputs, rawInputsUnchanged } from './compare-raw-inputs.ts';
export type { ErrorCatalogue, ErrorCodeEntry } from './error-catalogue.ts';
export { SCHEMA_ERRORS } from './error-codes.ts';
export { FREQUENCIES, FREQUENCY_NAMES, Frequency } from './frequency.ts';
export { daysInMonth, IsoDate, MONTH_NAMES } from './iso-date.ts';
export { jsonSchemaOf, jsonSchemas, jsonSchemaText } from './json-schemas.ts';
export { Manifest, ManifestOutput } from './manifest.ts';
export {
  DEFAULT_UNIVERSE_MEMORY_LIMIT,
  MEMORY_LIMIT_MIN,
  MEMORY_LIMIT_MIN_BYTES,
  MEMORY_LIMIT_RANGE,
  memoryLimitBytes,
  memoryLimitProblem,
} from './memory-limit.ts';
export { editDistance, nearestNames, requireKnownNames } from './nearest-names.ts';
export {
  AVAILABLE_AT_BASES,
  AvailableAtBasis,
  Observation,
  SeriesId,
  SeriesInput,
  UniverseKind,
} from './observation.ts';
export { type NamedRawFile, pickRawCsvFiles, type RawCsvFormat, readRawFolder } from './pick-raw-files.ts';
export { hasControlChars, implausibleValueProblem, MAX_ABS_VALUE, printable } from './raw-input-checks.ts';
export { readCsv } from './read-csv.ts';
export { oneLineMessage, shownValue } from './shown-value.ts';
export {
  type RawDirFilter,
  type RawInputChange,
  RERUN_EVERY_UPDATE,
  type SkippedInput,
  type Source,
  type SourceContext,
  type SourceOldInput,
  type SourceRawFile,
  type SourceReport,
  type SourceUpdateAction,
  type SourceUpdateContext,
  type SourceUpdatePlan,
} from './source.ts';
export { Seed, SyntheticDate, startNotAfterEnd, Tickers } from './source-config-fields.ts';
export {
  firstZodIssue,
  formatZodIssue,
  formatZodIssues,
  zodInputError,
  zodIssuePath,
  zodMessage,
} from './zod-issues.ts';
