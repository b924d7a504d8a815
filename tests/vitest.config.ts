import { defineConfig } from 'vitest/config';

// The cross-package tests build whole universes: long timeouts, one file at a time (2-core machine).
export default defineConfig({
  test: {
    testTimeout: 600_000,
    hookTimeout: 900_000,
    fileParallelism: false,
  },
});
