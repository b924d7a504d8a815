/**
 * asof update against a full build on a raw-file universe written by the sources' synthetic generators
 * (write-synthetic-raw-universe.ts: Yahoo chart JSON with sidecars, companyfacts/submissions JSON, ALFRED
 * observation JSON). Stage 2 adds about 1% new rows: a recent-window re-download of every instrument (one
 * past close silently changed), a new instrument, a fiscal year of filings for some companies, a restated
 * filing and ALFRED vintages. Prints the wall and CPU seconds of `build(t2)` and of
 * `update(build(t1), t2)`, their ratio, and whether every Parquet file and the manifest body are identical.
 *
 *   npx tsx packages/build/bench/update.ts [--instruments 160] [--companies 100] [--fred 40] [--t2 2024-08-27] [--dir D]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { canonicalJson, readManifest } from '@asof/manifest';
import type { Manifest } from '@asof/schema';
import { writeSyntheticRawUniverse } from '@asof/test-kit';
import { buildUniverse } from '../src/build-universe.ts';
import { loadPipeline } from '../src/load-pipeline.ts';
import { updateUniverse } from '../src/update-universe.ts';

const { values } = parseArgs({
  options: {
    instruments: { type: 'string', default: '160' },
    companies: { type: 'string', default: '100' },
    fred: { type: 'string', default: '40' },
    t2: { type: 'string', default: '2024-08-27' },
    newFilers: { type: 'string', default: '10' },
    // The instrument new in t2 is a listing since this date (pass 2000-01-03 for a full backfilled history,
    // which makes every segment of its cross-sections be recomputed).
    listed: { type: 'string', default: '2024-05-01' },
    dir: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'asof-bench-update-'));
const shape = {
  instruments: Number(values.instruments),
  companies: Number(values.companies),
  fredSeries: Number(values.fred),
  from: '2000-01-03',
  t1: '2024-05-31',
  t2: values.t2,
  newFilers: Number(values.newFilers),
  newInstrumentFrom: values.listed,
};

async function timed<T>(
  what: string,
  run: () => Promise<T>,
): Promise<{ value: T; wall: number; cpu: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await run();
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(cpu0);
  const cpu = (c.user + c.system) / 1e6;
  console.log(
    `${what.padEnd(28)} wall ${wall.toFixed(1).padStart(7)} s   cpu (this process) ${cpu.toFixed(1).padStart(7)} s`,
  );
  return { value, wall, cpu };
}

const quiet = () => {};
try {
  console.log(`raw universe in ${dir}: ${JSON.stringify(shape)}`);
  await timed('write raw t1 and t2', async () => {
    writeSyntheticRawUniverse(join(dir, 't1'), { stage: 1, ...shape });
    writeSyntheticRawUniverse(join(dir, 't2'), { stage: 2, ...shape });
  });
  const pipeline = (stage: string) => loadPipeline(join(dir, stage, 'pipeline.json'));
  await timed('build(t1)', () =>
    buildUniverse({ config: pipeline('t1'), outDir: join(dir, 'out-t1'), cwd: join(dir, 't1'), log: quiet }),
  );
  const full = await timed('build(t2)  [full]', () =>
    buildUniverse({ config: pipeline('t2'), outDir: join(dir, 'out-t2'), cwd: join(dir, 't2'), log: quiet }),
  );
  const update = await timed('update(build(t1), t2)', () =>
    updateUniverse({
      oldManifest: join(dir, 'out-t1', 'manifest.json'),
      config: pipeline('t2'),
      outDir: join(dir, 'out-update'),
      cwd: join(dir, 't2'),
      log: (l) => console.log(`    ${l}`),
    }),
  );
  const a = readManifest(join(dir, 'out-t2', 'manifest.json'));
  const b = readManifest(join(dir, 'out-update', 'manifest.json'));
  const body = (m: Manifest) => {
    const { dataset_id: _d, parent_dataset_id: _p, ...rest } = m;
    return canonicalJson(rest);
  };
  const files = a.outputs.every((o) => b.outputs.some((x) => x.path === o.path && x.sha256 === o.sha256));
  const s1 = readManifest(join(dir, 'out-t1', 'manifest.json')).summary as { observations: number };
  const s2 = a.summary as { observations: number };
  console.log(
    `observations: t1 ${s1.observations.toLocaleString('en-US')}, t2 ${s2.observations.toLocaleString('en-US')} (+${(((s2.observations - s1.observations) / s1.observations) * 100).toFixed(2)}%)`,
  );
  console.log(
    `update status: ${update.value.status}; linked partitions: ${update.value.linked.join(', ') || 'none'}`,
  );
  console.log(`identical: Parquet files ${files}, manifest body ${body(a) === body(b)}`);
  console.log(
    `update / full build: wall ${((update.wall / full.wall) * 100).toFixed(1)}%, cpu ${((update.cpu / full.cpu) * 100).toFixed(1)}% (cpu counts this process only; DuckDB threads included)`,
  );
} finally {
  if (!values.keep && values.dir === undefined) rmSync(dir, { recursive: true, force: true });
}
