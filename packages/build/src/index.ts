export { ASOF_VERSION, buildUniverse, type SummaryRow } from './build-universe.ts';
export { BUILD_ERRORS } from './error-codes.ts';
export { gitState } from './git-state.ts';
export { isOutOfScope } from './ingest-accounting.ts';
export { loadPipeline } from './load-pipeline.ts';
export { PipelineConfig, pipelineJsonSchema } from './pipeline-config.ts';
export { recordedPipelineFile } from './recorded-pipeline-file.ts';
export { type UpdateResult, type UpdateStep, updateUniverse } from './update-universe.ts';
