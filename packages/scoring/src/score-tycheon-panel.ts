import type { ModelForecasts } from './align-forecasts.ts';
import type { MetricCells, ScoringScope } from './metric-cells.ts';
import { costDiagnostic } from './metrics/cost-diagnostic.ts';
import { directionalAccuracy } from './metrics/directional-accuracy.ts';
import { intervalCoverage } from './metrics/interval-coverage.ts';
import { mae } from './metrics/mae.ts';
import { maseVsRandomWalk } from './metrics/mase-vs-random-walk.ts';
import { pearsonCorrelation } from './metrics/pearson-correlation.ts';
import { qlike } from './metrics/qlike.ts';
import { rmse } from './metrics/rmse.ts';
import { spearmanCorrelation } from './metrics/spearman-correlation.ts';
import type { PooledValue } from './results-schema.ts';
import { stepsBetween } from './steps-between.ts';
import {
  forecastVariance,
  intervalBounds,
  scoredRanges,
  type TycheonFrame,
  type TycheonLosses,
} from './tycheon-scores.ts';

/**
 * The Tycheon cells of a run, per series in horizon-end Tycheon space (log return, or scaled change for a
 * series that reaches ≤ 0): MAE, RMSE, MASE vs the random walk, directional accuracy and CRPS; interval
 * coverage, its error and width; QLIKE for models with a forecast variance; IC and RankIC across each
 * series' origins, and the cost-aware diagnostic. Returns the pooled IC, RankIC and diagnostic (all scored
 * series' origins stacked).
 */
export function scoreTycheonPanel(
  scope: ScoringScope,
  models: readonly ModelForecasts[],
  cells: MetricCells,
  frame: TycheonFrame,
  losses: Map<string, TycheonLosses>,
): PooledValue[] {
  scorePointMetrics(scope, models, cells, frame, losses);
  scoreIntervals(scope, models, cells, frame);
  scope.step('Tycheon point and interval metrics done');
  scoreQlike(scope, models, cells, frame);
  scope.step('QLIKE done');
  const pooled = scoreIcAndCosts(scope, models, cells, frame, losses);
  scope.step('Tycheon IC, RankIC and the cost-aware diagnostic done');
  return pooled;
}

/**
 * Frame row i's position rolls into row i + 1 (cost diagnostic): the next origin of the same series
 * starts exactly at this one's horizon end (origin_index, else the calendar).
 */
function carriesOver(scope: ScoringScope, frame: TycheonFrame): Uint8Array {
  const { panel, seriesUnit, unitInfo } = scope;
  const out = new Uint8Array(frame.origins.length);
  for (let s = 0; s < seriesUnit.length; s++) {
    const unit = seriesUnit[s];
    if (unit === undefined) continue;
    const freq = unitInfo.get(unit)?.frequency ?? 'D';
    for (let i = frame.seriesStart[s]; i + 1 < frame.seriesStart[s + 1]; i++) {
      const a = frame.origins[i];
      const b = frame.origins[i + 1];
      const byIndex = panel.originIndex[b] - panel.originIndex[a];
      const gap = Number.isFinite(byIndex)
        ? byIndex
        : stepsBetween(freq, panel.originTime[a], panel.originTime[b]);
      out[i] = gap === panel.horizon[a] ? 1 : 0;
    }
  }
  return out;
}

/**
 * Tycheon IC and RankIC: per series, the Pearson and Spearman correlation across its origins between the
 * forecast and the realised horizon-end return (Tycheon space); n/a for a constant forecast (the random
 * walk's, GARCH's) or fewer than two origins. The cost-aware diagnostic (costDiagnostic) per series, with
 * the position sign(median forecast) held for the horizon and the simple return (y_{o+H} − y_o)/|y_o|
 * earned. Unit cells are the means over the unit's series; the pooled values stack every scored series'
 * origins (Tycheon: "Pooled results stack the origins of all series").
 */
function scoreIcAndCosts(
  scope: ScoringScope,
  models: readonly ModelForecasts[],
  cells: MetricCells,
  frame: TycheonFrame,
  losses: Map<string, TycheonLosses>,
): PooledValue[] {
  const { seriesUnit, config } = scope;
  const costs = {
    halfSpread: config.cost_diagnostic.half_spread,
    slippage: config.cost_diagnostic.slippage,
    fee: config.cost_diagnostic.fee,
  };
  const carries = carriesOver(scope, frame);
  const ranges = scoredRanges(seriesUnit, frame);
  const rows: number[] = [];
  for (const { a, b } of ranges) for (let i = a; i < b; i++) rows.push(i);
  const stacked = Int32Array.from(rows);
  const pick = (x: ArrayLike<number>) => Float64Array.from(stacked, (i) => x[i]);
  const pooledRealized = pick(frame.realized);
  const pooledChange = pick(frame.change);
  // At a series boundary the position is closed.
  const pooledCarries = Uint8Array.from(stacked, (i, k) =>
    k + 1 < stacked.length && stacked[k + 1] === i + 1 ? carries[i] : 0,
  );
  const pooled: PooledValue[] = [];
  for (const m of models) {
    const l = losses.get(m.model)!;
    for (const { unit, a, b } of ranges) {
      const f = l.forecast.subarray(a, b);
      const add = (metric: string, direction: 'lower' | 'higher', value: number) =>
        cells.add(m.model, unit, 'tycheon', 'tycheon', metric, direction, value);
      add('tycheon.ic', 'higher', pearsonCorrelation(f, frame.realized.subarray(a, b)));
      add('tycheon.rank_ic', 'higher', spearmanCorrelation(f, frame.realized.subarray(a, b)));
      const d = costDiagnostic(f, frame.change.subarray(a, b), carries.subarray(a, b), costs);
      add('tycheon.cost_net_return', 'higher', d.netReturn);
      add('tycheon.cost_gross_return', 'higher', d.grossReturn);
      add('tycheon.cost_hit_rate', 'higher', d.hitRate);
      add('tycheon.cost_turnover', 'lower', d.turnover);
    }
    if (stacked.length === 0) continue;
    const f = pick(l.forecast);
    const d = costDiagnostic(f, pooledChange, pooledCarries, costs);
    const n = stacked.length;
    const row = (metric: string, value: number, count = n): PooledValue => ({
      model: m.model,
      metric,
      value: Number.isFinite(value) ? value : null,
      n: count,
    });
    pooled.push(
      row('tycheon.ic', pearsonCorrelation(f, pooledRealized)),
      row('tycheon.rank_ic', spearmanCorrelation(f, pooledRealized)),
      row('tycheon.cost_net_return', d.netReturn),
      row('tycheon.cost_gross_return', d.grossReturn),
      row('tycheon.cost_hit_rate', d.hitRate, d.positions),
      row('tycheon.cost_turnover', d.turnover),
    );
  }
  return pooled;
}

function scorePointMetrics(
  scope: ScoringScope,
  models: readonly ModelForecasts[],
  cells: MetricCells,
  frame: TycheonFrame,
  losses: Map<string, TycheonLosses>,
): void {
  for (const { unit, a, b } of scoredRanges(scope.seriesUnit, frame)) {
    const r = frame.realized.subarray(a, b);
    for (const m of models) {
      const l = losses.get(m.model)!;
      const f = l.forecast.subarray(a, b);
      const add = (metric: string, direction: 'lower' | 'higher', value: number) =>
        cells.add(m.model, unit, 'tycheon', 'tycheon', metric, direction, value);
      add('tycheon.mae', 'lower', mae(f, r));
      add('tycheon.rmse', 'lower', rmse(f, r));
      add('tycheon.mase', 'lower', maseVsRandomWalk(f, r));
      add('tycheon.directional_accuracy', 'higher', directionalAccuracy(f, r));
      // Quantile-grid CRPS is a different metric name so it never shares a ranking cell with exact CRPS.
      add(l.approximate ? 'tycheon.crps*' : 'tycheon.crps', 'lower', meanOf(l.crps.subarray(a, b)));
    }
  }
}

function scoreIntervals(
  scope: ScoringScope,
  models: readonly ModelForecasts[],
  cells: MetricCells,
  frame: TycheonFrame,
): void {
  const { panel, seriesUnit, config } = scope;
  for (const m of models) {
    for (const nominal of config.intervals) {
      const bounds = intervalBounds(panel, m, frame, nominal);
      if (!bounds) continue;
      const pct = Math.round(nominal * 100);
      for (const { unit, a, b } of scoredRanges(seriesUnit, frame)) {
        const c = intervalCoverage(
          bounds.lower.subarray(a, b),
          bounds.upper.subarray(a, b),
          frame.realized.subarray(a, b),
          nominal,
        );
        const add = (metric: string, direction: 'lower' | 'nominal', value: number) =>
          cells.add(m.model, unit, 'tycheon', 'tycheon', metric, direction, value);
        add(`tycheon.coverage_${pct}`, 'nominal', c.coverage);
        add(`tycheon.coverage_abs_error_${pct}`, 'lower', Math.abs(c.coverageError));
        add(`tycheon.width_${pct}`, 'lower', c.meanWidth);
      }
    }
  }
}

/** QLIKE: forecast variance vs realised variance, for models with a distribution (the random walk's σ²). */
function scoreQlike(
  scope: ScoringScope,
  models: readonly ModelForecasts[],
  cells: MetricCells,
  frame: TycheonFrame,
): void {
  const { panel, seriesUnit } = scope;
  for (const m of models) {
    const fv = forecastVariance(panel, m, frame);
    if (!fv) continue;
    const name = fv.approximate ? 'tycheon.qlike*' : 'tycheon.qlike';
    for (let s = 0; s < seriesUnit.length; s++) {
      const unit = seriesUnit[s];
      if (unit === undefined) continue;
      const h: number[] = [];
      const rv: number[] = [];
      for (let i = frame.seriesStart[s]; i < frame.seriesStart[s + 1]; i++) {
        // Origins with no realised movement or no variance forecast have no finite QLIKE; left out.
        if (fv.variance[i] > 0 && frame.realizedVariance[i] > 0) {
          h.push(fv.variance[i]);
          rv.push(frame.realizedVariance[i]);
        }
      }
      if (h.length) cells.add(m.model, unit, 'tycheon', 'tycheon', name, 'lower', qlike(h, rv));
    }
  }
}

function meanOf(x: Float64Array): number {
  if (x.length === 0) return Number.NaN;
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  return s / x.length;
}
