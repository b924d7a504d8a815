/**
 * End-to-end scoring at FinVerse evaluation scale (SPEC §12: 60,232 series, 17.4M evaluation points):
 * one submitted model plus the three baselines, every FinVerse task of a D5/M-style registry, FinTSB and
 * Tycheon metrics, DM verdicts, rank aggregation. In-memory columnar data, no file I/O; the `align` stage
 * is the forecasts-table → panel validation a file read ends in (strings are shared references, as a
 * Parquet dictionary column gives).
 *
 *   npx tsx bench/score.ts              # full scale
 *   npx tsx bench/score.ts 6000         # fewer series
 */
import {
  alignForecasts,
  type ForecastTable,
  panelFromColumns,
  renderLeaderboard,
  scorePanel,
  type TaskRow,
} from '../src/index.ts';
import { gaussian, maseOriTask, mulberry32 } from '../src/make-random-walk-panel.ts';

const SERIES = Number(process.argv[2] ?? 60_232);
const TAIL = 60;
// frequency, horizon H, origins per series, share (of 20), FinVerse horizons usable at that frequency
const GROUPS = [
  { freq: 'BD', H: 22, n: 13, share: 10, steps: { '1w': 5, '1m': 22, '1q': 65, '1h': 130, '1y': 260 } },
  { freq: 'D', H: 30, n: 10, share: 5, steps: { '1w': 7, '1m': 30, '1q': 91, '1h': 182, '1y': 365 } },
  { freq: 'W', H: 13, n: 22, share: 3, steps: { '1w': 1, '1m': 4, '1q': 13, '1h': 26, '1y': 52 } },
  { freq: 'M', H: 12, n: 24, share: 2, steps: { '1m': 1, '1q': 3, '1h': 6, '1y': 12 } },
] as const;

const mem = () => `${(process.resourceUsage().maxRSS / 1024 / 1024).toFixed(2)} GB peak RSS`;
// CPU time is reported beside wall time: on a shared 2-core machine wall time mostly measures the neighbours.
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const t0 = performance.now();
let last = t0;
let lastCpu = cpu();
const stage = (name: string, rows?: number) => {
  const now = performance.now();
  const c = cpu();
  const s = (now - last) / 1000;
  console.log(
    `${name.padEnd(10)} ${s.toFixed(1).padStart(6)} s wall ${(c - lastCpu).toFixed(1).padStart(6)} s cpu${rows ? `  ${(rows / s / 1e6).toFixed(2)} M points/s` : ''}  ${mem()}`,
  );
  last = now;
  lastCpu = c;
};

function groupOf(i: number) {
  const k = i % 20;
  let acc = 0;
  for (const g of GROUPS) {
    acc += g.share;
    if (k < acc) return g;
  }
  return GROUPS[0];
}

// Calendars: ISO strings shared by every series of a frequency.
const maxLen = Math.max(...GROUPS.map((g) => TAIL + g.n * g.H));
const calendars: Record<string, string[]> = {};
for (const g of GROUPS) {
  const out: string[] = [];
  const d = new Date(Date.UTC(1990, 0, 1));
  while (out.length < maxLen) {
    const wd = d.getUTCDay();
    if (g.freq !== 'BD' || (wd !== 0 && wd !== 6)) out.push(d.toISOString());
    if (g.freq === 'W') d.setUTCDate(d.getUTCDate() + 7);
    else if (g.freq === 'M') d.setUTCMonth(d.getUTCMonth() + 1);
    else d.setUTCDate(d.getUTCDate() + 1);
  }
  calendars[g.freq] = out;
}

let nOrigins = 0;
let nPoints = 0;
for (let i = 0; i < SERIES; i++) {
  const g = groupOf(i);
  nOrigins += g.n;
  nPoints += g.n * g.H;
}
const seriesIds = Array.from({ length: SERIES }, (_, i) => `s${String(i).padStart(6, '0')}`);
const originSeries = new Int32Array(nOrigins);
const originIso: string[] = new Array(nOrigins);
const horizon = new Int32Array(nOrigins);
const lastValue = new Float64Array(nOrigins);
const originIndex = new Float64Array(nOrigins);
const historyTail: Float64Array[] = new Array(nOrigins);
const actual = new Float64Array(nPoints);
const modelPoint = new Float64Array(nPoints);
const normal = gaussian(mulberry32(42));
const tasks: TaskRow[] = [];
{
  let o = 0;
  let p = 0;
  for (let i = 0; i < SERIES; i++) {
    const g = groupOf(i);
    const len = TAIL + g.n * g.H;
    const y = new Float64Array(len);
    y[0] = 100;
    for (let t = 1; t < len; t++) y[t] = y[t - 1] * (1 + 0.01 * normal());
    const unit = {
      scope: 'Intra-country',
      category: `Cat${i % 5}`,
      detail_category: `D${i % 25}`,
      frequency: g.freq,
    };
    for (const [h, hs] of Object.entries(g.steps)) {
      for (const metric of ['HR', 'MASE_rel', 'MASE_abs'])
        tasks.push({
          series_id: seriesIds[i],
          aspect: 'Point-wise',
          metric,
          p: h,
          h,
          p_steps: hs,
          h_steps: hs,
          ...unit,
        });
      tasks.push({
        series_id: seriesIds[i],
        aspect: 'Cross-sectional',
        metric: 'IC',
        p: h,
        h,
        p_steps: hs,
        h_steps: hs,
        ...unit,
      });
      for (const metric of ['return', 'vol', 'Sharpe', 'MDD'])
        tasks.push({
          series_id: seriesIds[i],
          aspect: 'Portfolio',
          metric,
          p: h,
          h,
          p_steps: hs,
          h_steps: hs,
          ...unit,
        });
    }
    tasks.push(maseOriTask(seriesIds[i], unit));
    for (let j = 0; j < g.n; j++) {
      const t = TAIL - 1 + j * g.H;
      originSeries[o] = i;
      originIso[o] = calendars[g.freq][t];
      horizon[o] = g.H;
      lastValue[o] = y[t];
      originIndex[o] = t;
      historyTail[o] = y.subarray(t - TAIL + 1, t + 1);
      for (let k = 1; k <= g.H; k++) {
        actual[p] = y[t + k];
        modelPoint[p] = y[t] * (1 + 0.002 * normal());
        p++;
      }
      o++;
    }
  }
}
stage('generate', nPoints);
console.log(`${SERIES} series, ${nOrigins} origins, ${nPoints} evaluation points, ${tasks.length} task rows`);

const panel = panelFromColumns({
  seriesIds,
  originSeries,
  originIso,
  horizon,
  lastValue,
  historyTail,
  originIndex,
  actual,
});
stage('panel');

// A forecasts table as a reader would hand it over (columnar; repeated strings shared).
const model: string[] = new Array(nPoints).fill('bench_model');
const seriesCol: string[] = new Array(nPoints);
const originCol: string[] = new Array(nPoints);
const step = new Int32Array(nPoints);
for (let o = 0, p = 0; o < nOrigins; o++) {
  for (let k = 1; k <= horizon[o]; k++, p++) {
    seriesCol[p] = seriesIds[originSeries[o]];
    originCol[p] = originIso[o];
    step[p] = k;
  }
}
const table: ForecastTable = {
  source: 'bench',
  model,
  series_id: seriesCol,
  origin: originCol,
  step,
  value: modelPoint,
  quantiles: [],
  samples: [],
  firstRow: 1,
};
stage('table');
const models = alignForecasts(panel, table);
stage('align', nPoints);
const scoreStart = performance.now();
const results = scorePanel({
  tasks,
  panel,
  models,
  options: { originsPolicy: 'non_overlapping', log: (l) => console.log(`           ${l}`) },
});
stage('score', nPoints);
const md = renderLeaderboard(results);
stage('render');
const pooled = results.verdicts.rows.filter((r) => r.unit === '*').map((r) => `${r.model}: ${r.verdict}`);
console.log(`verdicts (pooled): ${pooled.join(', ')}`);
console.log(`overall: ${results.ranks.overall.models.map((m) => `${m.position}. ${m.model}`).join(', ')}`);
console.log(`${results.values.length} unit-level values, leaderboard ${md.length} chars`);
console.log(
  `TOTAL ${((performance.now() - t0) / 1000).toFixed(1)} s wall, ${cpu().toFixed(1)} s cpu (scoring ${((performance.now() - scoreStart) / 1000).toFixed(1)} s wall), ${mem()}`,
);
