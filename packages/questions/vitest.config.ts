import { defineConfig } from 'vitest/config';

// DuckDB, files and child processes on a loaded 2-core machine: vitest's 5 s default is a quiet machine's
// figure, and one timeout cascades through a shared connection (issue 50). Nothing here asserts speed.
export default defineConfig({ test: { testTimeout: 120_000, hookTimeout: 120_000 } });
