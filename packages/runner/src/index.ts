export {
  type AnsweredPath,
  type AskedBatch,
  checkForecastReply,
  type ForecastShape,
  parseReplyLine,
} from './check-reply.ts';
export * from './error-codes.ts';
export { MODEL_ENV_DEFAULT } from './model-environment.ts';
export { ModelFailureSignal, ModelProcess, type ModelProcessOptions } from './model-process.ts';
export { ModelRunError } from './model-run-error.ts';
export {
  modelSandbox,
  type SandboxMode,
  type SandboxRecord,
  sandboxAvailable,
  sandboxMode,
} from './model-sandbox.ts';
export { openRunSplit, type Pair, type RunSplit } from './open-run-split.ts';
export * from './protocol.ts';
export { type RunModelOptions, type RunModelResult, runModel } from './run-model.ts';
export { type CommandFile, hashCommandFiles, readRunRecords } from './run-record.ts';
export { type BatchLimits, type PredictBatch, predictBatches } from './serve-batches.ts';
export { splitCommandLine } from './split-command-line.ts';
