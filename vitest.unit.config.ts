import { defineConfig } from 'vitest/config';

// `npm run test:unit`: the packages' unit tests in one vitest process (the development loop; issue 50).
// `npm test` (README, CI) runs everything, these included; the files below are its slow ones, left to it.
export const SLOW_TESTS = [
  'packages/split/src/run-split.test.ts',
  'packages/runner/src/run-model.test.ts',
  'packages/split/src/forecast-parts.test.ts',
  'packages/cli/src/baselines-command.test.ts',
  'packages/patterns/src/build-segments.test.ts',
  'packages/patterns/src/export-fintsb.test.ts',
  'packages/scoring/src/score-panel.test.ts',
  'packages/runner/src/serve-batches.test.ts',
  'packages/cli/src/bundle-cli.test.ts',
  'packages/patterns/src/characteristics/characteristics-pool.test.ts',
];

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...SLOW_TESTS],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Both cores: vitest's default on 2 cores is one worker.
    maxWorkers: 2,
  },
});
