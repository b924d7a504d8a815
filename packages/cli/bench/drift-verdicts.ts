// How often each drift baseline gets each verdict vs the random walk on panels like the default's 40
// driftless random walks (docs/decisions/0009): the same generator (simulateLogReturns), US sessions
// 2005-01-03…2025-12-31, non-overlapping H = 260 origins from 2020-01-01, the pooled DM-HLN on squared
// error and point CRPS, in both the Tycheon log-return space and the simple-return space, for the level
// slope (y_o − y_1)/(n − 1) and the log-level slope ln(y_o/y_1)/(n − 1). Seeds: the default's, then 1…N.
//   npx tsx packages/cli/bench/drift-verdicts.ts [N=20]        (from the repo root)
import { dieboldMariano, type Verdict, verdictVsRandomWalk } from '@asof/scoring';
import { priceProcessOf, simulateLogReturns, tradingSessionGrid } from '@asof/source-embedded';

const grid = tradingSessionGrid('2005-01-03', '2025-12-31');
const N = grid.length;
const firstOrigin = grid.findIndex((d) => d.date >= '2020-01-01');
const H = 260;
const seeds = [20260101, ...Array.from({ length: Number(process.argv[2] ?? 20) }, (_, i) => i + 1)];
const drifts = {
  level: (y0: number, y1: number, n: number) => y0 + (H * (y0 - y1)) / (n - 1),
  log: (y0: number, y1: number, n: number) => y0 * Math.exp((H * Math.log(y0 / y1)) / (n - 1)),
};
const spaces = {
  log: (y: number, y0: number) => Math.log(y / y0),
  simple: (y: number, y0: number) => (y - y0) / y0,
};
const tally = new Map<string, Record<Verdict | 'non-positive forecasts', number>>();
for (const seed of seeds) {
  const paths = Array.from({ length: 200 }, (_, i) => i)
    .filter((i) => priceProcessOf(i) === 'random_walk')
    .map((i) => {
      const { r } = simulateLogReturns(seed, i, N);
      const y = new Float64Array(N);
      y[0] = 100;
      for (let t = 1; t < N; t++) y[t] = y[t - 1] * Math.exp(r[t]);
      return y;
    });
  const line: string[] = [];
  for (const [driftName, drift] of Object.entries(drifts)) {
    for (const [spaceName, space] of Object.entries(spaces)) {
      const se: number[] = [];
      const seRw: number[] = [];
      const crps: number[] = [];
      const crpsRw: number[] = [];
      let nonPositive = 0;
      for (const y of paths) {
        for (let o = firstOrigin; o + H <= N - 1; o += H) {
          const f = drift(y[o], y[0], o + 1);
          // A level slope can forecast a price below zero: no log return; counted, left out.
          if (!(f > 0)) {
            nonPositive++;
            continue;
          }
          const r = space(y[o + H], y[o]);
          const fr = space(f, y[o]);
          se.push((fr - r) ** 2);
          seRw.push(r * r);
          crps.push(Math.abs(fr - r));
          crpsRw.push(Math.abs(r));
        }
      }
      const a = dieboldMariano(se, seRw);
      const b = dieboldMariano(crps, crpsRw);
      const verdict = verdictVsRandomWalk(a, b);
      const key = `${driftName} drift, ${spaceName} returns`;
      const t = tally.get(key) ?? { beats: 0, indistinguishable: 0, worse: 0, 'non-positive forecasts': 0 };
      t[verdict]++;
      t['non-positive forecasts'] += nonPositive;
      tally.set(key, t);
      line.push(
        `${key}: ${verdict} (DM ${a.statistic.toFixed(2)} / ${b.statistic.toFixed(2)}, n ${se.length})`,
      );
    }
  }
  console.log(`seed ${seed}  ${line.join('  |  ')}`);
}
console.log(`\nverdicts over ${seeds.length} seeds:`);
for (const [key, t] of tally) console.log(`  ${key.padEnd(28)} ${JSON.stringify(t)}`);
