import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { nodeApi, nodeBindings } from './node-api.ts';

describe('nodeApi', () => {
  it('is the CommonJS module require gives, not an ESM namespace of it (docs/decisions/0039)', () => {
    const require = createRequire(import.meta.url);
    expect(nodeApi).toBe(require('@duckdb/node-api'));
    expect(nodeBindings).toBe(require('@duckdb/node-bindings'));
    expect(typeof nodeApi.DuckDBInstance.create).toBe('function');
  });
});
