// asof's autoArima against R's forecast::auto.arima on the ARIMA reference series (issue 56):
// `npx tsx bench/arima-vs-r.ts [--runs 3]` from packages/baselines. The inputs are the 310 auto.arima cases
// of reference/arima/arima-reference.json (32 simulated, 278 of the default universe), each called as
// arima-reference.test.ts calls it: autoArima(x) with default options, NaN for a missing value, and in R
// auto.arima(x) on the plain numeric vector with NA (bench/arima-vs-r.R, as make-reference.R). Each side
// times only its loop over the series, single thread, `runs` times; the medians are compared. R is skipped
// when Rscript or the forecast package is absent. Measurements belong here, never in unit tests.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { autoArima } from '../src/auto-arima.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    rscript: { type: 'string', default: '/usr/bin/Rscript' },
  },
});
const runs = Number(args.runs);
const file = (name: string) => fileURLToPath(new URL(`../reference/arima/${name}`, import.meta.url));
const reference = JSON.parse(readFileSync(file('arima-reference.json'), 'utf8')) as {
  auto: { name: string; x?: (number | null)[] }[];
};
const universe = new Map(
  (
    JSON.parse(readFileSync(file('universe-inputs.json'), 'utf8')) as {
      inputs: { name: string; x: (number | null)[] }[];
    }
  ).inputs.map((i) => [i.name, i.x]),
);
const inputs = reference.auto.map((c) => ({ name: c.name, x: c.x ?? universe.get(c.name)! }));
const series = inputs.map((i) => Float64Array.from(i.x, (v) => (v === null ? Number.NaN : v)));

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

function timeAsof(): number[] {
  const times: number[] = [];
  let sink = 0;
  for (let run = 0; run < runs; run++) {
    const start = process.hrtime.bigint();
    for (const x of series) sink += autoArima(x).fit.sigma2;
    times.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  if (Number.isNaN(sink)) console.error('(a fit returned a NaN σ²)');
  return times;
}

function timeR(): number[] | string {
  if (!existsSync(args.rscript)) return `${args.rscript} not found`;
  const dir = mkdtempSync(join(tmpdir(), 'arima-vs-r-'));
  try {
    const path = join(dir, 'inputs.json');
    writeFileSync(path, JSON.stringify(inputs));
    const script = fileURLToPath(new URL('./arima-vs-r.R', import.meta.url));
    const r = spawnSync(args.rscript, [script, path, String(runs)], { encoding: 'utf8' });
    if (r.status !== 0) return `Rscript failed: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`;
    return r.stdout.trim().split('\n').map(Number);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const asof = timeAsof();
const r = timeR();
const fmt = (v: number[]) => v.map((t) => t.toFixed(3)).join(', ');
console.log(
  `series: ${series.length} (auto.arima cases of arima-reference.json, non-seasonal, default options)`,
);
console.log(`asof autoArima: median ${median(asof).toFixed(3)} s of ${runs} runs (${fmt(asof)})`);
if (typeof r === 'string') {
  console.log(`R auto.arima: skipped (${r})`);
} else {
  console.log(`R auto.arima: median ${median(r).toFixed(3)} s of ${runs} runs (${fmt(r)})`);
  console.log(`ratio R/asof: ${(median(r) / median(asof)).toFixed(2)}`);
}
