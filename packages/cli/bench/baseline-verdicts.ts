// How often each baseline gets each verdict vs the random walk, through the scorer itself (scorePanel:
// the random walk as N(0, σ̂²h), ARIMA and GARCH with their quantiles, DM-HLN on squared error and CRPS),
// on panels like the default's 40 driftless random walks (as drift-verdicts.ts builds them: the default's
// generator simulateLogReturns, US sessions 2005-01-03…2025-12-31, non-overlapping H = 260 origins from
// 2020-01-01, a 260-session input window). On a driftless random walk no honest baseline can beat the
// random walk in expectation (Tycheon methodology): a 'beats' would be a leak or a bug. Seeds: the
// default's, then 1…N.
//   npx tsx packages/cli/bench/baseline-verdicts.ts [N=20]        (from the repo root)
import {
  buildEvaluationPanel,
  maseOriTask,
  type OriginRow,
  scorePanel,
  type TargetRow,
  type Verdict,
} from '@asof/scoring';
import { priceProcessOf, simulateLogReturns, tradingSessionGrid } from '@asof/source-embedded';

const grid = tradingSessionGrid('2005-01-03', '2025-12-31');
const N = grid.length;
const firstOrigin = grid.findIndex((d) => d.date >= '2020-01-01');
const H = 260;
const LOOKBACK = 260;
const seeds = [20260101, ...Array.from({ length: Number(process.argv[2] ?? 20) }, (_, i) => i + 1)];
const tally = new Map<string, Record<Verdict | 'n/a', number>>();
const started = performance.now();
for (const seed of seeds) {
  const origins: OriginRow[] = [];
  const targets: TargetRow[] = [];
  const series: string[] = [];
  for (let i = 0; i < 200; i++) {
    if (priceProcessOf(i) !== 'random_walk') continue;
    const id = `rw${i}`;
    series.push(id);
    const { r } = simulateLogReturns(seed, i, N);
    const y = new Float64Array(N);
    y[0] = 100;
    for (let t = 1; t < N; t++) y[t] = y[t - 1] * Math.exp(r[t]);
    for (let o = firstOrigin; o + H <= N - 1; o += H) {
      const origin = grid[o].date;
      origins.push({
        series_id: id,
        origin,
        horizon: H,
        last_value: y[o],
        history_tail: Array.from(y.subarray(o - LOOKBACK + 1, o + 1)),
        history_first: y[0],
        // y[0]'s grid steps back from the origin's step (consecutive steps: the whole history is served).
        history_first_back: o,
      });
      for (let k = 1; k <= H; k++) targets.push({ series_id: id, origin, step: k, value: y[o + k] });
    }
  }
  const results = scorePanel({
    tasks: series.map((s) => maseOriTask(s, { frequency: 'BD' })),
    panel: buildEvaluationPanel(origins, targets),
    models: [],
  });
  const line: string[] = [];
  for (const row of results.verdicts.rows.filter((v) => v.unit === '*')) {
    const t = tally.get(row.model) ?? { beats: 0, indistinguishable: 0, worse: 0, 'n/a': 0 };
    t[row.verdict ?? 'n/a']++;
    tally.set(row.model, t);
    const dm = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : x.toFixed(2));
    line.push(
      `${row.model} ${row.verdict} (DM ${dm(row.squared_error?.statistic)} / ${dm(row.crps?.statistic)})`,
    );
  }
  console.log(`seed ${seed} (${origins.length} origins)  ${line.join('  |  ')}`);
}
console.log(
  `\nverdicts over ${seeds.length} seeds (${((performance.now() - started) / 1000).toFixed(0)} s):`,
);
for (const [model, t] of tally) console.log(`  ${model.padEnd(16)} ${JSON.stringify(t)}`);
