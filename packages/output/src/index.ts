export { cleanStaleTemps } from './clean-stale-temps.ts';
export { OUTPUT_ERRORS } from './error-codes.ts';
export { faultPoint } from './fault-point.ts';
export {
  ASOF_HTML_GENERATOR,
  ASOF_PARQUET_KEY,
  isAsofOutputDir,
  isAsofParquetFile,
  readAsofParquetMetadata,
} from './inspect-output-target.ts';
export { installSignalCleanup, onInterrupt, runInterruptibly } from './install-signal-cleanup.ts';
export { fileTypeWords, NotRegularFileError, openRegularFile, readRegularFile } from './open-regular-file.ts';
export { OutputBusyError, OutputRefusedError } from './output-errors.ts';
export { OutputIoError, outputIoError } from './output-io-error.ts';
export { type OutputKind, planOutput } from './plan-output.ts';
export { isProcessAlive, parseStamp, stampText } from './process-stamp.ts';
export { isSameOrInside, resolveRealPath } from './resolve-real-path.ts';
export { scratchPath } from './scratch-dir.ts';
export { makeSpillDir } from './spill-dir.ts';
export { isInsideAsofTemp } from './store-layout.ts';
export { stateDir } from './temp-registry.ts';
export { type OutputDirOptions, type OutputWork, writeOutputDir } from './write-output-dir.ts';
export { writeOutputFile } from './write-output-file.ts';
