export { TRANSFORM_ERRORS } from './error-codes.ts';
export { assertKnownUnits, loadRegistryTables } from './load-registry-tables.ts';
export { membershipWarnings } from './membership-warnings.ts';
export {
  assertInvariants,
  createStagingTables,
  InvariantError,
  MODELS_DIR,
  modelSql,
  OBSERVATION_MODELS,
  runModels,
  UNIVERSE_MODELS,
} from './run-models.ts';
export { evalStartAfterDataWarning, shortEvalSeriesWarning } from './short-eval-series-warning.ts';
export { StageSink } from './stage-sink.ts';
export {
  createObservationCodes,
  OBSERVATION_CODES,
  OBSERVATION_COLUMNS,
  stagedObservationTexts,
  type WrittenTable,
  writeTable,
  writeUniverse,
} from './write-universe.ts';
