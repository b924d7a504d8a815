// asof's autoArima against R's forecast::auto.arima on the ARIMA reference series (issue 56):
// `npx tsx bench/arima-vs-r.ts [--runs 3]` from packages/baselines. What is timed, and how, is in
// arima-vs-r-timing.ts (shared with `npm run bench`); the medians of `runs` runs are compared.
// Measurements belong here, never in unit tests.
import { parseArgs } from 'node:util';
import { DEFAULT_RSCRIPT, median, timeArimaVsR } from './arima-vs-r-timing.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    rscript: { type: 'string', default: DEFAULT_RSCRIPT },
  },
});
const runs = Number(args.runs);
const { series, asof, r } = timeArimaVsR(runs, args.rscript);
const fmt = (v: number[]) => v.map((t) => t.toFixed(3)).join(', ');
console.log(`series: ${series} (auto.arima cases of arima-reference.json, non-seasonal, default options)`);
console.log(`asof autoArima: median ${median(asof).toFixed(3)} s of ${runs} runs (${fmt(asof)})`);
if (typeof r === 'string') {
  console.log(`R auto.arima: skipped (${r})`);
} else {
  console.log(`R auto.arima: median ${median(r).toFixed(3)} s of ${runs} runs (${fmt(r)})`);
  console.log(`ratio R/asof: ${(median(r) / median(asof)).toFixed(2)}`);
}
