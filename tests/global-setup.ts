import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's scratch folder (helpers.ts SCRATCH): every output a test writes, and the shared fixtures. */
    scratchRoot: string;
  }
}

/**
 * One scratch folder per run, outside the checkout, removed when the run ends (issue 50: tests leave the user's
 * out/ alone). The shared universes (shared-fixtures.ts) are built into it once, by the first test file that
 * asks, so running one file builds only what that file needs. `ASOF_TEST_KEEP=1` keeps the folder to look at.
 */
export default function setup(project: TestProject): () => void {
  const root = mkdtempSync(join(tmpdir(), 'asof-tests-'));
  project.provide('scratchRoot', root);
  return () => {
    if (process.env.ASOF_TEST_KEEP === '1') process.stdout.write(`asof tests: scratch kept at ${root}\n`);
    else rmSync(root, { recursive: true, force: true });
  };
}
