/**
 * Reading a forecasts CSV far past the engine's 512 MB string limit (issue 15, Build 8): writes a CSV for
 * the FinVerse-scale panel of bench/score.ts (60,232 series, 17.4M evaluation points; same frequency mix)
 * with two point-forecast models — about 2.1 GB — into a temp folder, then times checkForecastsReadable,
 * readForecasts (streamed) and alignForecasts, and checks every aligned value against what was written.
 * Prints wall and CPU time and peak RSS per stage (the scoring memory budget is 8 GB peak RSS).
 *
 *   npx tsx bench/forecasts-2gb.ts               # full scale, ~2.1 GB
 *   npx tsx bench/forecasts-2gb.ts 6000          # fewer series
 *   npx tsx bench/forecasts-2gb.ts 60232 --score # then also scorePanel (one MASE_ori task per series)
 *
 * The file is deleted at the end (KEEP=1 keeps it and prints its path).
 */
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  alignForecasts,
  checkForecastsReadable,
  maseOriTask,
  panelFromColumns,
  readForecasts,
  scorePanel,
  type TaskRow,
} from '../src/index.ts';
import { gaussian, mulberry32 } from '../src/make-random-walk-panel.ts';

const SERIES = Number(process.argv[2] ?? 60_232);
const SCORE = process.argv.includes('--score');
const MODELS = ['bench_model_a', 'bench_model_b'];
const TAIL = 60;
// frequency, horizon H, origins per series, share (of 20): as bench/score.ts
const GROUPS = [
  { freq: 'BD', H: 22, n: 13, share: 10 },
  { freq: 'D', H: 30, n: 10, share: 5 },
  { freq: 'W', H: 13, n: 22, share: 3 },
  { freq: 'M', H: 12, n: 24, share: 2 },
] as const;

const gb = (bytes: number) => (bytes / 1024 ** 3).toFixed(2);
const peak = () => `${gb(process.resourceUsage().maxRSS * 1024)} GB peak RSS`;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const t0 = performance.now();
let last = t0;
let lastCpu = cpu();
const stage = (name: string, extra = '') => {
  const now = performance.now();
  const c = cpu();
  const m = process.memoryUsage();
  console.log(
    `${name.padEnd(10)} ${((now - last) / 1000).toFixed(1).padStart(6)} s wall ${(c - lastCpu).toFixed(1).padStart(6)} s cpu  ` +
      `rss ${gb(m.rss)} GB (heap ${gb(m.heapUsed)}, buffers ${gb(m.arrayBuffers)})  ${peak()}${extra ? `  ${extra}` : ''}`,
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

const calendars: Record<string, string[]> = {};
for (const g of GROUPS) {
  const out: string[] = [];
  const d = new Date(Date.UTC(1990, 0, 1));
  while (out.length < TAIL + g.n * g.H) {
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
  nOrigins += groupOf(i).n;
  nPoints += groupOf(i).n * groupOf(i).H;
}
const seriesIds = Array.from({ length: SERIES }, (_, i) => `s${String(i).padStart(6, '0')}`);
const originSeries = new Int32Array(nOrigins);
const originIso: string[] = new Array(nOrigins);
const horizon = new Int32Array(nOrigins);
const lastValue = new Float64Array(nOrigins);
const actual = new Float64Array(nPoints);
const normal = gaussian(mulberry32(42));
for (let i = 0, o = 0, p = 0; i < SERIES; i++) {
  const g = groupOf(i);
  const y = new Float64Array(TAIL + g.n * g.H);
  y[0] = 100;
  for (let t = 1; t < y.length; t++) y[t] = y[t - 1] * (1 + 0.01 * normal());
  for (let j = 0; j < g.n; j++, o++) {
    const t = TAIL - 1 + j * g.H;
    originSeries[o] = i;
    originIso[o] = calendars[g.freq][t];
    horizon[o] = g.H;
    lastValue[o] = y[t];
    for (let k = 1; k <= g.H; k++) actual[p++] = y[t + k];
  }
}
const panel = panelFromColumns({ seriesIds, originSeries, originIso, horizon, lastValue, actual });
stage('panel', `${SERIES} series, ${nOrigins} origins, ${nPoints} points`);

// The CSV: model-major, then the panel's (series, origin, step) order, as a model's export would write it.
const dir = mkdtempSync(join(tmpdir(), 'asof-bench-forecasts-'));
const path = join(dir, 'forecasts.csv');
const fd = openSync(path, 'w');
// Sums of the values as written (parsed back from their text), to check the aligned columns against.
const writtenSums = MODELS.map(() => 0);
{
  let buf: string[] = ['model,series_id,origin,step,value'];
  const flush = () => {
    writeSync(fd, `${buf.join('\n')}\n`);
    buf = [];
  };
  MODELS.forEach((model, m) => {
    for (let o = 0; o < nOrigins; o++) {
      const prefix = `${model},${seriesIds[originSeries[o]]},${originIso[o]},`;
      for (let k = 1; k <= horizon[o]; k++) {
        const text = (lastValue[o] * (1 + (0.002 + 0.001 * m) * normal())).toFixed(6);
        writtenSums[m] += Number(text);
        buf.push(`${prefix}${k},${text}`);
      }
      if (buf.length > 100_000) flush();
    }
  });
  flush();
  closeSync(fd);
}
const bytes = statSync(path).size;
stage('write', `${path}: ${gb(bytes)} GB, ${(nPoints * MODELS.length).toLocaleString('en-US')} rows`);

try {
  const checked = await checkForecastsReadable(path);
  stage('check', `checkForecastsReadable: ${checked.format}, ${checked.columns.join(',')}`);
  const table = await readForecasts(path);
  stage('read', `${((bytes / 1024 ** 2 / (performance.now() - last)) * 1000).toFixed(0)} MB/s`);
  const models = alignForecasts(panel, table);
  stage('align', `${models.length} models x ${nPoints.toLocaleString('en-US')} points`);
  models.forEach((f, m) => {
    let sum = 0;
    for (let i = 0; i < f.point.length; i++) sum += f.point[i];
    // Same values in the same order: the sums agree to rounding.
    if (f.model !== MODELS[m] || Math.abs(sum - writtenSums[m]) > 1e-9 * Math.abs(writtenSums[m])) {
      throw new Error(`model ${f.model}: aligned sum ${sum} differs from the written ${writtenSums[m]}`);
    }
  });
  console.log('aligned values match what was written (per-model sums)');
  if (SCORE) {
    // Units as in bench/score.ts (5 categories × 25 details × 4 frequencies): score-panel's dmVerdicts
    // spreads each unit's origin list into one push(...), which overflows the stack past ~100k origins.
    const tasks: TaskRow[] = seriesIds.map((id, i) =>
      maseOriTask(id, { frequency: groupOf(i).freq, category: `Cat${i % 5}`, detail_category: `D${i % 25}` }),
    );
    const results = scorePanel({ tasks, panel, models, options: { originsPolicy: 'non_overlapping' } });
    stage('score', `${results.values.length} unit-level values`);
  }
} finally {
  if (process.env.KEEP) console.log(`kept ${path}`);
  else rmSync(dir, { recursive: true, force: true });
}
console.log(
  `TOTAL ${((performance.now() - t0) / 1000).toFixed(1)} s wall, ${cpu().toFixed(1)} s cpu, ${peak()} (${gb(bytes)} GB file)`,
);
