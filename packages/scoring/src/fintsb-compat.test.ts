import { describe, expect, it } from 'vitest';
import { alignForecasts, forecastRowsToTable } from './align-forecasts.ts';
import { buildEvaluationPanel } from './build-evaluation-panel.ts';
import { maseOriTask, mulberry32 } from './make-random-walk-panel.ts';
import { scorePanel } from './score-panel.ts';
import type { ForecastRow, OriginRow, TargetRow } from './score-types.ts';

// Issue 18.9: the same signals scored by the paper's text and by FinTSB's published code conventions.
// 12 series of one BD unit, 4 consecutive daily origins (H = 1): k = ⌈10% · 12⌉ = 2 held, n = ⌈2/6⌉ = 1
// replaced a day, fee c = 0.1%, A = 260 origins a year.
const days = ['2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05'];
const rand = mulberry32(17);
const origins: OriginRow[] = [];
const targets: TargetRow[] = [];
const forecasts: ForecastRow[] = [];
/** change[t][i], predicted[t][i]: the simple returns the FinTSB cells read. */
const change = days.map(() => new Array<number>(12));
const predicted = days.map(() => new Array<number>(12));
for (let i = 0; i < 12; i++) {
  const id = `s${String(i).padStart(2, '0')}`;
  days.forEach((d, t) => {
    const y0 = 100 + 10 * rand();
    const y1 = y0 * (1 + 0.04 * (rand() - 0.5));
    const f = y0 * (1 + 0.5 * (y1 / y0 - 1) + 0.01 * (rand() - 0.5));
    origins.push({ series_id: id, origin: d, horizon: 1, last_value: y0, history_tail: [y0] });
    targets.push({ series_id: id, origin: d, step: 1, value: y1 });
    forecasts.push({ model: 'sig', series_id: id, origin: d, step: 1, value: f });
    change[t][i] = (y1 - y0) / y0;
    predicted[t][i] = (f - y0) / y0;
  });
}
const panel = buildEvaluationPanel(origins, targets);
const tasks = [...new Set(origins.map((o) => o.series_id))].map((s) =>
  maseOriTask(s, { frequency: 'BD', category: 'Cat', detail_category: 'Det' }),
);
const models = alignForecasts(panel, forecastRowsToTable(forecasts));
const run = (fintsbCompat: 'paper' | 'code') =>
  scorePanel({ tasks, panel, models, options: { baselines: [], fintsbCompat } });
const paper = run('paper');
const code = run('code');
const value = (r: typeof paper, metric: string) =>
  r.values.find((v) => v.model === 'sig' && v.metric === metric)?.value;

// By hand, from the formulas FinTSB's code computes (see fintsb-code-conventions.ts).
const byScore = (t: number, names: number[]) =>
  [...names].sort((a, b) => predicted[t][b] - predicted[t][a] || a - b);
const avg = (t: number, names: number[]) => names.reduce((s, i) => s + change[t][i], 0) / names.length;
const keep = (1 - 0.001) ** 2;
const pearson = (x: number[], y: number[]) => {
  const mx = x.reduce((a, b) => a + b) / x.length;
  const my = y.reduce((a, b) => a + b) / y.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  x.forEach((xi, i) => {
    sxy += (xi - mx) * (y[i] - my);
    sxx += (xi - mx) ** 2;
    syy += (y[i] - my) ** 2;
  });
  return sxy / Math.sqrt(sxx * syy);
};
const all = Array.from({ length: 12 }, (_, i) => i);
const ics = days.map((_, t) => pearson(predicted[t], change[t]));
const icMean = ics.reduce((a, b) => a + b) / ics.length;
const topkDaily = days.map((_, t) => avg(t, byScore(t, all).slice(0, 2)) * keep);
const dropDaily: number[] = [];
let held: number[] = [];
days.forEach((_, t) => {
  if (t === 0) {
    held = byScore(0, all).slice(0, 2);
    dropDaily.push(avg(0, held) * keep);
    return;
  }
  const kept = byScore(t, held).slice(0, 1);
  const bought = byScore(
    t,
    all.filter((i) => !kept.includes(i)),
  ).slice(0, 1);
  dropDaily.push((avg(t, kept) * 1 + avg(t, bought) * 1 * keep) / 2);
  held = [...kept, ...bought];
});
function stats(daily: number[]) {
  let nav = 1;
  let peak = -Infinity;
  let mdd = 0;
  for (const r of daily) {
    nav *= 1 + r;
    peak = Math.max(peak, nav);
    mdd = Math.min(mdd, (nav - peak) / peak);
  }
  const m = daily.reduce((a, b) => a + b) / daily.length;
  const sd = Math.sqrt(daily.reduce((s, r) => s + (r - m) ** 2, 0) / (daily.length - 1));
  const arr = nav ** (260 / daily.length) - 1;
  return { arr, avol: sd * Math.sqrt(260), mdd, asr: arr / (sd * Math.sqrt(260)) };
}

describe('--fintsb-compat code: FinTSB code conventions on the same signals as the paper', () => {
  it('is stated in the config, and its cells have their own names', () => {
    expect(paper.config.fintsb_compat).toBe('paper');
    expect(code.config.fintsb_compat).toBe('code');
    expect(code.config_sha256).not.toBe(paper.config_sha256);
    const names = (r: typeof paper) =>
      new Set(r.values.filter((v) => v.family === 'fintsb').map((v) => v.metric));
    expect(names(code).has('fintsb.code.topk_arr')).toBe(true);
    expect(names(code).has('fintsb.topk_arr')).toBe(false);
    expect(names(paper).has('fintsb.code.topk_arr')).toBe(false);
    // IC, RankIC, MSE and MAE are the same in both.
    for (const m of ['fintsb.ic', 'fintsb.rank_ic', 'fintsb.mse', 'fintsb.mae'])
      expect(value(code, m)).toBe(value(paper, m));
    expect(value(paper, 'fintsb.ic')).toBeCloseTo(icMean, 12);
  });

  it('ICIR with ddof 0, and IR as the code prints it (the IC)', () => {
    const dev = ics.reduce((s, x) => s + (x - icMean) ** 2, 0);
    expect(value(code, 'fintsb.code.icir')).toBeCloseTo(icMean / Math.sqrt(dev / ics.length), 12);
    expect(value(paper, 'fintsb.icir')).toBeCloseTo(icMean / Math.sqrt(dev / (ics.length - 1)), 12);
    expect(value(code, 'fintsb.code.topk_ir')).toBeCloseTo(icMean, 12);
    expect(value(code, 'fintsb.code.topk_drop_ir')).toBeCloseTo(icMean, 12);
  });

  it('TopK and TopK-Drop with (1 − c)² on the mean return and MDD from NAV₁', () => {
    for (const [prefix, daily] of [
      ['fintsb.code.topk', topkDaily],
      ['fintsb.code.topk_drop', dropDaily],
    ] as const) {
      const s = stats(daily);
      expect(value(code, `${prefix}_arr`)).toBeCloseTo(s.arr, 10);
      expect(value(code, `${prefix}_avol`)).toBeCloseTo(s.avol, 12);
      expect(value(code, `${prefix}_mdd`)).toBeCloseTo(s.mdd, 14);
      expect(value(code, `${prefix}_asr`)).toBeCloseTo(s.asr, 10);
    }
    // The paper's numbers differ (fee × turnover, MDD from NAV₀): these are different conventions.
    expect(value(paper, 'fintsb.topk_arr')).not.toBeCloseTo(value(code, 'fintsb.code.topk_arr')!, 6);
  });
});
