export * from '@asof/prng';
export * from './embedded-source.ts';
export * from './error-codes.ts';
export * from './generate-synthetic-prices.ts';
export * from './ingest-embedded.ts';
export * from './read-vega-real.ts';
export * from './release-rules.ts';
export * from './trading-session-grid.ts';
