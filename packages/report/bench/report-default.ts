// Build time and size of each kind of report on the default universe (issue 19's figures):
//   npm start
//   npx asof split --manifest out/default/manifest.json --out out/default-split
//   npx asof score --manifest out/default-split/manifest.json --forecasts out/default-baselines.parquet --out out/first-score
//   npx tsx packages/report/bench/report-default.ts [--universe M] [--split M] [--results DIR] [--runs 3]
// Each report is built --runs times (default 3) into out/bench/; the median wall time, the process's CPU
// for that run and the file's size are printed. Missing inputs are named and skipped, never faked.
import { existsSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildReport } from '../src/index.ts';

const { values: args } = parseArgs({
  options: {
    universe: { type: 'string', default: 'out/default/manifest.json' },
    split: { type: 'string', default: 'out/default-split/manifest.json' },
    results: { type: 'string', default: 'out/first-score' },
    runs: { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
  },
});
const root = resolve(import.meta.dirname, '..', '..', '..');
const runs = Number(args.runs);
if (!(Number.isInteger(runs) && runs >= 1)) {
  console.error(`report bench: --runs ${args.runs}: expected a whole number ≥ 1`);
  process.exit(2);
}

const resultsDir = resolve(root, args.results);
const cases = [
  { report: 'universe', manifestPath: resolve(root, args.universe) },
  { report: 'split', manifestPath: resolve(root, args.split) },
  {
    report: 'scoring',
    manifestPath: resolve(root, args.split),
    resultsPath: join(resultsDir, 'results.json'),
  },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const figures: Record<string, unknown>[] = [];
for (const c of cases) {
  const needed = [c.manifestPath, ...(c.resultsPath ? [c.resultsPath] : [])].filter((p) => !existsSync(p));
  if (needed.length) {
    console.error(
      `report bench: ${c.report}: skipped, missing ${needed.join(', ')} (see the commands above)`,
    );
    continue;
  }
  const out = join(root, 'out', 'bench', `report-${c.report}-${process.pid}.html`);
  const walls: number[] = [];
  const cpus: number[] = [];
  let bytes = 0;
  let charts = 0;
  for (let i = 0; i < runs; i++) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    const r = await buildReport({ manifestPath: c.manifestPath, resultsPath: c.resultsPath, outPath: out });
    walls.push((performance.now() - t) / 1000);
    const used = process.cpuUsage(cpu);
    cpus.push((used.user + used.system) / 1e6);
    bytes = r.bytes;
    charts = r.charts;
    // The report is written as a generation behind a link (docs/decisions/0010): remove both.
    rmSync(out, { force: true });
    rmSync(join(dirname(out), '.asof', basename(out)), { recursive: true, force: true });
  }
  const m = walls.indexOf(median(walls));
  const row = {
    report: c.report,
    median_wall_seconds: Number(walls[m].toFixed(2)),
    cpu_seconds: Number(cpus[m].toFixed(2)),
    walls: walls.map((w) => Number(w.toFixed(2))),
    bytes,
    charts,
  };
  figures.push(row);
  if (!args.json) {
    console.log(
      `${c.report.padEnd(9)} median ${row.median_wall_seconds.toFixed(2).padStart(6)} s wall (runs ${row.walls.join(', ')})  cpu ${row.cpu_seconds.toFixed(2)} s  ${(bytes / 1e6).toFixed(2)} MB  ${charts} charts`,
    );
  }
}
if (args.json) console.log(JSON.stringify(figures, null, 2));
