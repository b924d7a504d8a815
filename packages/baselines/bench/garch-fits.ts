// GARCH(1,1) fit time on real-shaped series (issue 56 item 3): `npx tsx bench/garch-fits.ts [--runs 3]` from
// packages/baselines. The inputs are the 278 default-universe windows of reference/arima/universe-inputs.json,
// turned into one-step returns as GarchBaseline does (log returns of a positive window, else changes; a gap
// skipped); those with at least GARCH_MIN_RETURNS returns are fitted with fitGarch's defaults. Prints the
// median time of `runs` passes and a sha256 of every fit's parameters, likelihood and next variance, so a
// speed-up can show it changed no result. Measurements belong here, never in unit tests.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { allPositive } from '../src/arima-baseline.ts';
import { fitGarch } from '../src/fit-garch.ts';
import { GARCH_MIN_RETURNS } from '../src/garch-baseline.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(args.runs);
const inputs = (
  JSON.parse(
    readFileSync(fileURLToPath(new URL('../reference/arima/universe-inputs.json', import.meta.url)), 'utf8'),
  ) as { inputs: { name: string; x: (number | null)[] }[] }
).inputs;

const series: Float64Array[] = [];
for (const { x } of inputs) {
  const values = Float64Array.from(x, (v) => (v === null ? Number.NaN : v));
  const log = allPositive(values);
  const returns: number[] = [];
  for (let i = 1; i < values.length; i++) {
    if (Number.isNaN(values[i]) || Number.isNaN(values[i - 1])) continue;
    returns.push(log ? Math.log(values[i] / values[i - 1]) : values[i] - values[i - 1]);
  }
  if (returns.length >= GARCH_MIN_RETURNS) series.push(Float64Array.from(returns));
}

const times: number[] = [];
let digest = '';
for (let run = 0; run < runs; run++) {
  const hash = createHash('sha256');
  const start = process.hrtime.bigint();
  for (const r of series) {
    try {
      const f = fitGarch(r);
      hash.update(
        Float64Array.from([f.omega, f.alpha, f.beta, f.negLogLik, f.nextVariance, f.converged ? 1 : 0]),
      );
    } catch (err) {
      hash.update(String((err as Error).message));
    }
  }
  times.push(Number(process.hrtime.bigint() - start) / 1e9);
  digest = hash.digest('hex');
}
const sorted = [...times].sort((a, b) => a - b);
console.log(
  `series: ${series.length} (default-universe windows of universe-inputs.json, ≥ ${GARCH_MIN_RETURNS} returns)`,
);
console.log(
  `fitGarch: median ${sorted[Math.floor(runs / 2)].toFixed(3)} s of ${runs} runs (${times.map((t) => t.toFixed(3)).join(', ')})`,
);
console.log(`results sha256 ${digest}`);
