import { nodeApi } from './node-api.ts';

export type { DuckDBType, DuckDBValue } from '@duckdb/node-api';
export const { BIGINT, BOOLEAN, DOUBLE, INTEGER, listValue, VARCHAR } = nodeApi;
export { describeParquet, type ParquetDescription } from './describe-parquet.ts';
export { DUCK_ERRORS } from './error-codes.ts';
export { cutRanges, keyRanges, MAX_ROWS_PER_FILE, partPath } from './key-ranges.ts';
export { loadQuery, loadSql, runSqlFile } from './load-sql.ts';
export {
  asOutOfMemory,
  Duck,
  DuckError,
  DuckOutOfMemoryError,
  PARQUET_ROW_GROUP_ROWS,
  type Params,
  physicalMemoryBytes,
  pickUsedParams,
} from './open-duck.ts';
export { quoteIdent, quoteLiteral } from './quote-ident.ts';
export { createTextEnum, sortWithCodes, type TextCodes } from './sort-with-codes.ts';
export { type NumberLists, streamArrow, streamNumberLists, streamNumbers } from './stream-arrow.ts';
export { TableAppender } from './table-appender.ts';
export { threadsOf, withThreads } from './with-threads.ts';
