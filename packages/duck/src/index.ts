import { nodeApi } from './node-api.ts';

export type { DuckDBType, DuckDBValue } from '@duckdb/node-api';
export const { BIGINT, BOOLEAN, DOUBLE, INTEGER, listValue, VARCHAR } = nodeApi;
export * from './describe-parquet.ts';
export * from './error-codes.ts';
export * from './key-ranges.ts';
export * from './load-sql.ts';
export * from './open-duck.ts';
export * from './quote-ident.ts';
export * from './sort-with-codes.ts';
export * from './stream-arrow.ts';
export * from './table-appender.ts';
export * from './with-threads.ts';
