import { join } from 'node:path';
import { readManifest } from '@asof/manifest';
import { writeMiniUniverse } from '@asof/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asof, removeOutput, scratchOut } from './helpers.ts';

const universe = scratchOut('split-cli-universe');
const out = scratchOut('split-cli-out');
afterAll(() => {
  for (const d of [universe, out]) removeOutput(d.abs);
});

beforeAll(async () => {
  const observations = [];
  for (let y = 2015; y <= 2022; y++) {
    for (const m of [3, 6, 9, 12]) {
      const t = `${new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10)}T23:59:59Z`;
      const a = new Date(Date.parse(t) + 40 * 86_400_000).toISOString();
      observations.push({ series_id: 'q:x', timestamp: t, available_at: a, value: y + m / 100 });
    }
  }
  await writeMiniUniverse(universe.abs, {
    name: 'cli',
    eval_start: '2020-01-01',
    series: [{ series_id: 'q:x', frequency: 'Q', eval_target: true }],
    observations,
  });
});

describe('asof split (command line)', () => {
  it('writes the split and its manifest, naming the parent', async () => {
    const run = await asof(
      'split',
      '--manifest',
      join(universe.rel, 'manifest.json'),
      '--out',
      out.rel,
      '--model-cutoff',
      '2021-01-01',
      '--run-date',
      '2022-06-30',
      '--json',
    );
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout);
    const parent = readManifest(join(universe.abs, 'manifest.json'));
    expect(doc.parent_dataset_id).toBe(parent.dataset_id);
    expect(readManifest(join(out.abs, 'manifest.json'))).toMatchObject({
      kind: 'split',
      parent_dataset_id: parent.dataset_id,
    });
    expect(doc.summary.origins).toBeGreaterThan(0);
  });

  it('warns (exit 0, stderr and the manifest) when a window asked for is empty, and prints the origins dropped', async () => {
    // The data ends with 2022; a cutoff in 2024 leaves no origin after it: T2 is empty.
    const late = scratchOut('split-cli-late');
    try {
      const run = await asof(
        'split',
        '--manifest',
        join(universe.rel, 'manifest.json'),
        '--out',
        late.rel,
        '--model-cutoff',
        '2024-01-01',
        '--run-date',
        '2025-01-01',
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(
        /asof split: warning: window T2 is empty with --model-cutoff 2024-01-01T00:00:00(\.0+)?Z and --run-date 2025-01-01T00:00:00(\.0+)?Z: no origin after the model cutoff/,
      );
      const m = readManifest(join(late.abs, 'manifest.json'));
      const empty = m.warnings.filter((w) => w.code === 'SPLIT_WINDOW_EMPTY');
      expect(empty.map((w) => w.message.slice(0, 16))).toEqual(['window T2 is emp']);
      const summary = m.summary as { origins_straddling_cutoff_dropped: number };
      expect(run.stdout).toContain(
        `dropped ${summary.origins_straddling_cutoff_dropped} origin(s) straddling the model cutoff`,
      );
      // A cutoff inside the data, every quarter an origin: T1, T2 and T3 all hold origins, so no warning.
      const inside = await asof(
        'split',
        '--manifest',
        join(universe.rel, 'manifest.json'),
        '--out',
        late.rel,
        '--origins',
        'all',
        '--model-cutoff',
        '2021-06-30',
        '--run-date',
        '2025-01-01',
      );
      expect(inside.code, inside.stderr).toBe(0);
      expect(inside.stderr).not.toMatch(/is empty/);
      const m2 = readManifest(join(late.abs, 'manifest.json'));
      expect(
        (m2.summary as { origins_straddling_cutoff_dropped: number }).origins_straddling_cutoff_dropped,
      ).toBeGreaterThan(0);
      expect(inside.stdout).toMatch(/dropped [1-9]\d* origin\(s\) straddling the model cutoff/);
    } finally {
      removeOutput(late.abs);
    }
  });

  it('exits 2 with the reason for DM on overlapping origins and for bad usage', async () => {
    const dm = await asof(
      'split',
      '--manifest',
      join(universe.rel, 'manifest.json'),
      '--out',
      out.rel,
      '--origins',
      'all',
      '--dm',
    );
    expect(dm.code).toBe(2);
    expect(dm.stderr).toMatch(/Diebold–Mariano.*--origins non_overlapping/);
    const missing = await asof('split', '--out', out.rel);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--manifest is required/);
    const unknown = await asof('split', '--manifest', 'x', '--bogus');
    expect(unknown.code).toBe(2);
    const policy = await asof(
      'split',
      '--manifest',
      join(universe.rel, 'manifest.json'),
      '--origins',
      'some',
    );
    expect(policy.code).toBe(2);
    expect(policy.stderr).toMatch(/expected one of all, non_overlapping/);
    // A universe built at a small duckdb.memory_limit is split at that limit unless --memory-limit says
    // otherwise; the flag takes what the pipeline field takes (64MB … 1000TB, or a share).
    const memory = await asof(
      'split',
      '--manifest',
      join(universe.rel, 'manifest.json'),
      '--memory-limit',
      '1MB',
    );
    expect(memory.code).toBe(2);
    expect(memory.stderr).toMatch(
      /--memory-limit 1MB: 1MB is below asof's minimum of 64MB; expected a size from 64MB/,
    );
    // The output may not be the universe itself (an input of the split).
    const onParent = await asof(
      'split',
      '--manifest',
      join(universe.rel, 'manifest.json'),
      '--out',
      universe.rel,
    );
    expect(onParent.code).toBe(2);
    expect(onParent.stderr).toMatch(/which this command reads/);
  });
});
