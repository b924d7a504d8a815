export { cleanStaleTemps } from './clean-stale-temps.ts';
export * from './error-codes.ts';
export { faultPoint } from './fault-point.ts';
export {
  ASOF_HTML_GENERATOR,
  ASOF_PARQUET_KEY,
  inspectOutputTarget,
  isAsofHtmlFile,
  isAsofManifestFile,
  isAsofOutputDir,
  isAsofParquetFile,
  isAsofResultsFile,
  readAsofParquetMetadata,
  type TargetState,
} from './inspect-output-target.ts';
export { installSignalCleanup, onInterrupt, runInterruptibly } from './install-signal-cleanup.ts';
export {
  fileTypeWords,
  NotRegularFileError,
  openRegularFile,
  readRegularFile,
} from './open-regular-file.ts';
export { OutputBusyError, OutputRefusedError } from './output-errors.ts';
export {
  checkOutputWritable,
  faultErrno,
  isNamedIoError,
  OutputIoError,
  outputIoError,
} from './output-io-error.ts';
export { type OutputKind, type OutputOptions, type OutputPlan, planOutput } from './plan-output.ts';
export { isProcessAlive, type ProcessStamp, parseStamp, processStamp, stampText } from './process-stamp.ts';
export { isSameOrInside, resolveRealPath } from './resolve-real-path.ts';
export { makeScratchDir, SCRATCH_PREFIX, scratchPath } from './scratch-dir.ts';
export { makeSpillDir, SPILL_MARKER, SPILL_PREFIX } from './spill-dir.ts';
export { isInsideAsofTemp, STORE_DIR, storeOf } from './store-layout.ts';
export { registryDir, stateDir } from './temp-registry.ts';
export { type OutputDirOptions, type OutputWork, writeOutputDir } from './write-output-dir.ts';
export { type OutputFileOptions, writeOutputFile } from './write-output-file.ts';
