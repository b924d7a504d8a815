import { describe, expect, it } from 'vitest';
import { alignForecasts, forecastRowsToTable } from './align-forecasts.ts';
import { buildEvaluationPanel } from './build-evaluation-panel.ts';
import { gaussian, makeRandomWalkPanel, mulberry32 } from './make-random-walk-panel.ts';
import { costDiagnostic } from './metrics/cost-diagnostic.ts';
import { pearsonCorrelation } from './metrics/pearson-correlation.ts';
import { spearmanCorrelation } from './metrics/spearman-correlation.ts';
import { ScoringResults } from './results-schema.ts';
import { scorePanel } from './score-panel.ts';
import type { ForecastRow } from './score-types.ts';
import { tycheonFrame } from './tycheon-scores.ts';

// Issue 18.5 (Tycheon IC and RankIC per series across origins) and 18.6 (the cost-aware diagnostic).
const data = makeRandomWalkPanel({ seed: 13, units: 2, seriesPerUnit: 4, originsPerSeries: 20, tail: 60 });
const panel = buildEvaluationPanel(data.origins, data.targets);
const frame = tycheonFrame(panel);
const normal = gaussian(mulberry32(8));
// A signal: the realised horizon-end move plus noise, so forecasts and outcomes correlate imperfectly.
const signal: ForecastRow[] = [];
const signalEnd = new Float64Array(panel.horizon.length);
for (let o = 0; o < panel.horizon.length; o++) {
  const H = panel.horizon[o];
  const yH = panel.actual[panel.targetOffset[o] + H - 1];
  const y0 = panel.lastValue[o];
  const end = y0 + 0.5 * (yH - y0) + 1.5 * normal();
  signalEnd[o] = end;
  for (let k = 1; k <= H; k++) {
    signal.push({
      model: 'signal',
      series_id: panel.seriesIds[panel.originSeries[o]],
      origin: panel.originIso[o],
      step: k,
      value: y0 + ((end - y0) * k) / H,
    });
  }
}
const results = scorePanel({
  tasks: data.tasks,
  panel,
  models: alignForecasts(panel, forecastRowsToTable(signal)),
  options: { baselines: [], costs: { halfSpread: 0.001, slippage: 0.0005, fee: 0.0002 } },
});
const cell = (model: string, metric: string, unit: string) =>
  results.values.find((v) => v.model === model && v.metric === metric && v.unit === unit);
const pooled = (model: string, metric: string) =>
  results.pooled.find((p) => p.model === model && p.metric === metric)!;
const units = [...new Set(results.values.map((v) => v.unit))];

/** Per series (frame rows a..b): the forecast and realised horizon-end return in Tycheon space. */
function seriesRows(s: number) {
  const a = frame.seriesStart[s];
  const b = frame.seriesStart[s + 1];
  const f: number[] = [];
  const r: number[] = [];
  const c: number[] = [];
  for (let i = a; i < b; i++) {
    const o = frame.origins[i];
    f.push(Math.log(signalEnd[o] / panel.lastValue[o]));
    r.push(frame.realized[i]);
    c.push(frame.change[i]);
  }
  return { f, r, c };
}
const unitOf = (s: number) => {
  const t = data.tasks.find((x) => x.series_id === panel.seriesIds[s])!;
  return `${t.scope} / ${t.category} / ${t.detail_category} / ${t.frequency}`;
};

describe('Tycheon IC and RankIC per series across origins (issue 18.5)', () => {
  it('validates, and states the cost diagnostic in the config', () => {
    expect(ScoringResults.safeParse(results).success).toBe(true);
    expect(results.config.cost_diagnostic).toEqual({
      label: 'diagnostic, not a trading system',
      half_spread: 0.001,
      slippage: 0.0005,
      fee: 0.0002,
    });
  });

  it('is n/a for a constant forecast (the random walk), per unit and pooled', () => {
    for (const unit of units) {
      const ic = cell('random_walk', 'tycheon.ic', unit)!;
      expect(ic.value).toBeNull();
      expect(ic.series).toBe(0);
      expect(cell('random_walk', 'tycheon.rank_ic', unit)!.value).toBeNull();
    }
    expect(pooled('random_walk', 'tycheon.ic').value).toBeNull();
    expect(pooled('random_walk', 'tycheon.rank_ic').value).toBeNull();
  });

  it('per unit: the mean over its series of the per-series Pearson / Spearman correlations', () => {
    for (const unit of units) {
      const ics: number[] = [];
      const ranks: number[] = [];
      for (let s = 0; s < panel.seriesIds.length; s++) {
        if (unitOf(s) !== unit) continue;
        const { f, r } = seriesRows(s);
        ics.push(pearsonCorrelation(f, r));
        ranks.push(spearmanCorrelation(f, r));
      }
      const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;
      expect(cell('signal', 'tycheon.ic', unit)!.value).toBeCloseTo(mean(ics), 12);
      expect(cell('signal', 'tycheon.rank_ic', unit)!.value).toBeCloseTo(mean(ranks), 12);
      expect(mean(ics)).toBeGreaterThan(0.2);
    }
  });

  it('pooled: one correlation over every series’ origins stacked', () => {
    const f: number[] = [];
    const r: number[] = [];
    for (let s = 0; s < panel.seriesIds.length; s++) {
      const x = seriesRows(s);
      f.push(...x.f);
      r.push(...x.r);
    }
    expect(pooled('signal', 'tycheon.ic').value).toBeCloseTo(pearsonCorrelation(f, r), 12);
    expect(pooled('signal', 'tycheon.rank_ic').value).toBeCloseTo(spearmanCorrelation(f, r), 12);
    expect(pooled('signal', 'tycheon.ic').n).toBe(f.length);
  });
});

describe('the cost-aware diagnostic per model (issue 18.6)', () => {
  it('holds sign(median forecast) for one horizon and pays the stated costs on turnover', () => {
    const costs = { halfSpread: 0.001, slippage: 0.0005, fee: 0.0002 };
    // The panel's origins are exactly H apart: each position rolls into the next.
    let totalNet = 0;
    let origins = 0;
    for (const unit of units) {
      const nets: number[] = [];
      const hits: number[] = [];
      const turns: number[] = [];
      for (let s = 0; s < panel.seriesIds.length; s++) {
        if (unitOf(s) !== unit) continue;
        const { f, c } = seriesRows(s);
        const d = costDiagnostic(f, c, [...f.map(() => 1).slice(1), 0], costs);
        nets.push(d.netReturn);
        hits.push(d.hitRate);
        turns.push(d.turnover);
        totalNet += d.netReturn * d.origins;
        origins += d.origins;
      }
      const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;
      expect(cell('signal', 'tycheon.cost_net_return', unit)!.value).toBeCloseTo(mean(nets), 14);
      expect(cell('signal', 'tycheon.cost_hit_rate', unit)!.value).toBeCloseTo(mean(hits), 14);
      expect(cell('signal', 'tycheon.cost_turnover', unit)!.value).toBeCloseTo(mean(turns), 14);
      // The random walk never takes a position: no cost, no return, no hit rate.
      expect(cell('random_walk', 'tycheon.cost_net_return', unit)!.value).toBe(0);
      expect(cell('random_walk', 'tycheon.cost_turnover', unit)!.value).toBe(0);
      expect(cell('random_walk', 'tycheon.cost_hit_rate', unit)!.value).toBeNull();
    }
    expect(pooled('signal', 'tycheon.cost_net_return').value).toBeCloseTo(totalNet / origins, 14);
    // Costs are paid: the net return is below the gross by c × turnover.
    const gross = pooled('signal', 'tycheon.cost_gross_return').value!;
    const turnover = pooled('signal', 'tycheon.cost_turnover').value!;
    expect(pooled('signal', 'tycheon.cost_net_return').value).toBeCloseTo(gross - 0.0017 * turnover, 14);
    expect(turnover).toBeGreaterThan(0);
  });
});

describe('a no-change forecast computed with rounding noise (issue 51, audit scoring-2026-12 mismatch 1)', () => {
  /** x moved by `ulps` units in the last place (x > 0). */
  const nudge = (x: number, ulps: number) => {
    const f = new Float64Array([x]);
    new BigInt64Array(f.buffer)[0] += BigInt(ulps);
    return f[0];
  };
  // y_o at every step, each origin's value an ulp or two off it, as exp(ln y_o) lands.
  const noisy: ForecastRow[] = [];
  for (let o = 0; o < panel.horizon.length; o++) {
    const y0 = panel.lastValue[o];
    for (let k = 1; k <= panel.horizon[o]; k++) {
      noisy.push({
        model: 'noisy_walk',
        series_id: panel.seriesIds[panel.originSeries[o]],
        origin: panel.originIso[o],
        step: k,
        value: nudge(y0, (o % 5) - 2),
      });
    }
  }
  const scored = scorePanel({
    tasks: data.tasks,
    panel,
    models: alignForecasts(panel, forecastRowsToTable(noisy)),
    options: { baselines: [] },
  });
  const at = (metric: string, unit: string) =>
    scored.values.find((v) => v.model === 'noisy_walk' && v.metric === metric && v.unit === unit)!;

  it('is no change: IC, RankIC and directional accuracy n/a, no position in the cost diagnostic', () => {
    for (const unit of units) {
      for (const metric of ['tycheon.ic', 'tycheon.rank_ic', 'tycheon.directional_accuracy'])
        expect(at(metric, unit).value, `${metric} ${unit}`).toBeNull();
      expect(at('tycheon.cost_turnover', unit).value).toBe(0);
      // Its errors are the random walk's.
      expect(at('tycheon.mase', unit).value).toBe(1);
    }
    for (const metric of ['tycheon.ic', 'tycheon.rank_ic'])
      expect(scored.pooled.find((p) => p.model === 'noisy_walk' && p.metric === metric)!.value).toBeNull();
  });

  it('would correlate its noise without the no-change tolerance', () => {
    // The raw forecast returns are ±1e-16-sized and not constant by the spread rule relative to their size.
    const a = frame.seriesStart[0];
    const b = frame.seriesStart[1];
    const f: number[] = [];
    const r: number[] = [];
    for (let i = a; i < b; i++) {
      const o = frame.origins[i];
      f.push(Math.log(nudge(panel.lastValue[o], (o % 5) - 2) / panel.lastValue[o]));
      r.push(frame.realized[i]);
    }
    expect(Math.max(...f.map(Math.abs))).toBeGreaterThan(0);
    expect(Math.max(...f.map(Math.abs))).toBeLessThan(1e-15);
    expect(Number.isFinite(pearsonCorrelation(f, r))).toBe(true);
  });
});
