import { defineConfig } from 'vitest/config';

// The cross-package tests build whole universes: long timeouts, one file at a time (2-core machine). Every file
// writes into one scratch folder per run (global-setup.ts), where the shared universes are built once.
export default defineConfig({
  test: {
    globalSetup: ['./global-setup.ts'],
    testTimeout: 600_000,
    hookTimeout: 900_000,
    fileParallelism: false,
  },
});
