import { createRequire } from 'node:module';
import type * as NodeApi from '@duckdb/node-api';
import type * as NodeBindings from '@duckdb/node-bindings';

const require = createRequire(import.meta.url);

/**
 * @duckdb/node-api and its bindings, loaded with require. Both are CommonJS, and node-api's index re-exports
 * ~120 files: an ESM `import` makes Node pre-parse each of them for their export names (cjs-module-lexer)
 * before running them, which took 205–219 ms against 106–116 ms through require, in every command that
 * opens DuckDB (docs/decisions/0039). The types still come from the packages' own declarations.
 */
export const nodeApi: typeof NodeApi = require('@duckdb/node-api');
export const nodeBindings: typeof NodeBindings = require('@duckdb/node-bindings');
