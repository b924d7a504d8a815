// asof's autoArima against R's forecast::auto.arima on the ARIMA reference series (issue 56), shared by
// bench/arima-vs-r.ts and the repository bench (scripts/bench.ts). The inputs are the auto.arima cases of
// reference/arima/arima-reference.json (32 simulated, 278 of the default universe), each called as
// arima-reference.test.ts calls it: autoArima(x) with default options, NaN for a missing value, and in R
// auto.arima(x) on the plain numeric vector with NA (bench/arima-vs-r.R, as make-reference.R). Each side
// times only its loop over the series, single thread, `runs` times. R is skipped when Rscript or the
// forecast package is absent.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { autoArima } from '../src/auto-arima.ts';

export const DEFAULT_RSCRIPT = '/usr/bin/Rscript';

export interface ArimaVsR {
  series: number;
  /** asof's seconds per run. */
  asof: number[];
  /** R's seconds per run, or why R was skipped. */
  r: number[] | string;
}

export const median = (v: readonly number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

function referenceInputs(): { name: string; x: (number | null)[] }[] {
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
  return reference.auto.map((c) => ({ name: c.name, x: c.x ?? (universe.get(c.name) as (number | null)[]) }));
}

function timeAsof(series: readonly Float64Array[], runs: number): number[] {
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

function timeR(inputs: readonly { name: string; x: (number | null)[] }[], runs: number, rscript: string) {
  if (!existsSync(rscript)) return `${rscript} not found`;
  const dir = mkdtempSync(join(tmpdir(), 'arima-vs-r-'));
  try {
    const path = join(dir, 'inputs.json');
    writeFileSync(path, JSON.stringify(inputs));
    const script = fileURLToPath(new URL('./arima-vs-r.R', import.meta.url));
    const r = spawnSync(rscript, [script, path, String(runs)], { encoding: 'utf8' });
    if (r.status !== 0) return `Rscript failed: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`;
    return r.stdout.trim().split('\n').map(Number);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Times both sides on the reference series, `runs` times each (asof first, then R in its own process). */
export function timeArimaVsR(runs = 3, rscript = DEFAULT_RSCRIPT): ArimaVsR {
  const inputs = referenceInputs();
  const series = inputs.map((i) => Float64Array.from(i.x, (v) => (v === null ? Number.NaN : v)));
  const asof = timeAsof(series, runs);
  return { series: series.length, asof, r: timeR(inputs, runs, rscript) };
}
