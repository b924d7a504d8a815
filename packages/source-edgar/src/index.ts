export { EdgarConfig } from './edgar-config.ts';
export { edgarSource } from './edgar-source.ts';
export { SOURCE_EDGAR_ERRORS } from './error-codes.ts';
export { generateSyntheticEdgar } from './generate-synthetic-edgar.ts';
export type { EdgarIngestSummary } from './ingest-edgar-payloads.ts';
export { type EdgarRawFile, edgarRawFile, ingestEdgarRawFiles } from './ingest-edgar-raw-dir.ts';
