import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshBundle } from '@asof/cli/bundle';
import { afterAll, describe, expect, it } from 'vitest';
import { asofBin, REPO, removeOutput, writeTinyPipeline } from './helpers.ts';

// The bin runs an esbuild bundle of asof's sources while it is fresh, else the sources through tsx
// (docs/decisions/0038). Both must build the same bytes.
const dir = mkdtempSync(join(tmpdir(), 'asof-bundle-e2e-'));
const outs: string[] = [];
afterAll(() => {
  for (const o of outs) removeOutput(o);
  rmSync(dir, { recursive: true, force: true });
});

function build(pipeline: string, how: 'bundle' | 'tsx'): string {
  const out = join(REPO, 'out', `test-bundle-${how}-${process.pid}`);
  outs.push(out);
  const env = { ...process.env, ASOF_BUNDLE: how === 'tsx' ? 'off' : '' };
  const r = asofBin(['build', pipeline, '--out', out, '--json'], env);
  expect(r.stderr).not.toMatch(/unexpected failure/);
  expect(r.code).toBe(0);
  const m = JSON.parse(readFileSync(JSON.parse(r.stdout).manifest, 'utf8')) as {
    dataset_id: string;
    outputs: { path: string; sha256: string }[];
  };
  return [m.dataset_id, ...m.outputs.map((o) => `${o.path} ${o.sha256}`)].join('\n');
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
