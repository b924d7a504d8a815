import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { buildUniverse, loadPipeline, PipelineConfig } from '@asof/build';
import { canonicalJson, computeDatasetId, sha256Hex } from '@asof/manifest';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, removeOutput, SCRATCH } from './helpers.ts';

// The scale pipeline (SPEC §12) at a tiny scale through the real build: generated inside DuckDB from a
// counter-based PRNG, so two builds with different thread counts must give the same dataset_id.
const dirs = ['a', 'b'].map((x) => join(SCRATCH, `test-scale-${x}-${process.pid}`));

function tinyScale(threads: number, storage: 'memory' | 'file'): PipelineConfig {
  const base = loadPipeline(join(REPO, 'pipelines', 'scale.json'));
  return PipelineConfig.parse({
    ...base,
    name: 'scale-tiny',
    duckdb: { ...base.duckdb, threads, memory_limit: '2GB', storage },
    sources: { scale: { ...base.sources.scale, scale: 0.0002 } },
  });
}

afterAll(() => {
  for (const d of dirs) removeOutput(d);
});

describe('scale pipeline', () => {
  it('is deterministic at any thread count and storage: same files, and the same dataset_id for the same config', async () => {
    const lines: string[] = [];
    const one = await buildUniverse({
      config: tinyScale(1, 'memory'),
      outDir: dirs[0],
      cwd: REPO,
      log: (line) => lines.push(line),
    });
    // Three threads, so that the files written beside the segments (one thread fewer, write-universe-beside.ts)
    // are written on two here and on one in the first build.
    const two = await buildUniverse({ config: tinyScale(3, 'file'), outDir: dirs[1], cwd: REPO });
    // The temporary database file of 'file' storage (in the temp output's .work/) is gone, and never
    // part of the output: the output's store holds its one generation and nothing else.
    expect(readdirSync(join(SCRATCH, '.asof', basename(dirs[1])))).toEqual([expect.stringMatching(/^gen-/)]);
    expect(existsSync(join(dirs[1], '.work'))).toBe(false);
    const files = (m: typeof one.manifest) => m.outputs.map((o) => `${o.path} ${o.sha256} ${o.rows}`);
    expect(files(two.manifest)).toEqual(files(one.manifest));
    // Threads and storage are part of the hashed config; with them equal, the ids must be equal.
    const config = { ...two.manifest.config, duckdb: one.manifest.config.duckdb };
    const { dataset_id: _, ...body } = {
      ...two.manifest,
      config,
      config_sha256: sha256Hex(canonicalJson(config)),
    };
    expect(body.config_sha256).toBe(one.manifest.config_sha256);
    expect(computeDatasetId(body)).toBe(one.manifest.dataset_id);
    expect(two.manifest.dataset_id).not.toBe(one.manifest.dataset_id);

    const summary = one.manifest.summary as { series: number; observations: number; tasks: number };
    expect(summary.series).toBeGreaterThanOrEqual(119);
    expect(summary.observations).toBeGreaterThan(100_000);
    // The scale rows are inserted in SQL, past the sink; the count the build logs (and by which it decides
    // whether to write its files beside the segments) includes them.
    const staged = Number(/staged ([\d,]+) observation rows/.exec(lines.join('\n'))?.[1].replaceAll(',', ''));
    expect(staged).toBeGreaterThanOrEqual(summary.observations);
    expect(summary.tasks).toBeGreaterThan(0);
    const paths = one.manifest.outputs.map((o) => o.path);
    for (const f of ['BD', 'D', 'W', 'M', 'Q', 'A'])
      expect(paths).toContain(`observations/frequency=${f}/data.parquet`);
  });
});
