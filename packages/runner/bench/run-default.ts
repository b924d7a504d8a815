// Runner overhead and peak RSS on a whole split (issue 17: the default split, 5,373 origins, 388,788 input
// rows, ≤ 60 s of runner overhead and ≤ 4 GB peak RSS on the 2-core machine):
//   npm start && npx asof split --manifest out/default/manifest.json --out out/default-split --dm
//   npx tsx packages/runner/bench/run-default.ts [out/default-split/manifest.json] [--model "CMD"] [--no-fit]
// Prints wall, the runner's CPU, the time spent waiting for the model, runner overhead (wall − waiting),
// peak RSS of the runner process, and the run's counts. The model is trivial (the last value), plain JS.
import { rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runModel } from '../src/index.ts';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { model: { type: 'string' }, 'no-fit': { type: 'boolean' }, json: { type: 'boolean' } },
});
const root = resolve(import.meta.dirname, '..', '..', '..');
const manifest = resolve(root, positionals[0] ?? 'out/default-split/manifest.json');
const trivial = join(import.meta.dirname, 'trivial-model.mjs');
const model = args.model ?? `${process.execPath} ${trivial}${args['no-fit'] ? ' no-fit' : ''}`;
const out = join(root, 'out', 'bench', `runner-${process.pid}.parquet`);
const started = performance.now();
const cpu = process.cpuUsage();
const r = await runModel({
  manifestPath: manifest,
  command: model,
  name: 'trivial',
  outPath: out,
  cwd: root,
  runner: { name: 'asof-bench', version: '0' },
  log: (line) => console.error(`  ${line}`),
});
const wall = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
const figures = {
  split: manifest,
  model,
  wall_seconds: Number(wall.toFixed(1)),
  runner_cpu_seconds: Number(((used.user + used.system) / 1e6).toFixed(1)),
  model_wait_seconds: r.record.runtime.model_seconds,
  runner_overhead_seconds: Number((wall - r.record.runtime.model_seconds).toFixed(1)),
  peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  pairs: r.record.pairs.asked,
  batches: r.record.batches,
  forecast_rows: r.rows,
  guard: r.record.guard,
  fit: r.record.fit,
};
rmSync(out, { force: true });
rmSync(join(dirname(out), '.asof', basename(out)), { recursive: true, force: true });
if (args.json) console.log(JSON.stringify(figures, null, 2));
else {
  console.log(
    `runner: ${figures.pairs.toLocaleString('en-US')} pairs in ${figures.batches} batches, ${figures.forecast_rows.toLocaleString('en-US')} forecast rows, guard ${figures.guard.requests.toLocaleString('en-US')} requests / ${figures.guard.rows.toLocaleString('en-US')} rows, fit ${figures.fit ? `${figures.fit.series} series / ${figures.fit.rows.toLocaleString('en-US')} rows` : 'declined'}`,
  );
  console.log(
    `runner: wall ${figures.wall_seconds} s, runner CPU ${figures.runner_cpu_seconds} s, waiting for the model ${figures.model_wait_seconds} s, runner overhead ${figures.runner_overhead_seconds} s, peak RSS ${figures.peak_rss_mb} MB`,
  );
}
