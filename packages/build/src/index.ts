export * from './build-universe.ts';
export * from './error-codes.ts';
export * from './git-state.ts';
export * from './ingest-accounting.ts';
export * from './load-pipeline.ts';
export * from './run-sources.ts';
export * from './update-universe.ts';
export * from './write-universe-beside.ts';
