import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshBundle } from '@asof/cli/bundle';
import { afterAll, describe, expect, it } from 'vitest';
import { binBuildFingerprint, removeOutput, SCRATCH, writeTinyPipeline } from './helpers.ts';

// The bin runs an esbuild bundle of asof's sources while it is fresh, else the sources through tsx
// (docs/decisions/0038). Both must build the same bytes.
const dir = mkdtempSync(join(tmpdir(), 'asof-bundle-e2e-'));
const outs: string[] = [];
afterAll(() => {
  for (const o of outs) removeOutput(o);
  rmSync(dir, { recursive: true, force: true });
});

function build(pipeline: string, how: 'bundle' | 'tsx'): string {
  const out = join(SCRATCH, `test-bundle-${how}-${process.pid}`);
  outs.push(out);
  return binBuildFingerprint(pipeline, out, { ...process.env, ASOF_BUNDLE: how === 'tsx' ? 'off' : '' });
}

describe('the asof bin', () => {
  it('builds the same bytes from its bundle as from the sources through tsx', () => {
    const tiny = writeTinyPipeline(dir);
    const bundled = build(tiny, 'bundle');
    // The bin builds the bundle when it is missing or stale, so it ran from a fresh one.
    expect(freshBundle()).not.toBeNull();
    expect(bundled).toContain('segments.parquet');
    expect(build(tiny, 'tsx')).toBe(bundled);
  }, 300_000);
});
