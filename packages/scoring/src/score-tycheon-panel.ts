import type { ModelForecasts } from './align-forecasts.ts';
import type { MetricCells, ScoringScope } from './metric-cells.ts';
import { directionalAccuracy } from './metrics/directional-accuracy.ts';
import { intervalCoverage } from './metrics/interval-coverage.ts';
import { mae } from './metrics/mae.ts';
import { maseVsRandomWalk } from './metrics/mase-vs-random-walk.ts';
import { qlike } from './metrics/qlike.ts';
import { rmse } from './metrics/rmse.ts';
import { forecastVariance, intervalBounds, type TycheonFrame, type TycheonLosses } from './tycheon-scores.ts';

/**
 * The Tycheon cells of a run, per series in horizon-end Tycheon space (log return, or scaled change for a
 * series that reaches ≤ 0): MAE, RMSE, MASE vs the random walk, directional accuracy and CRPS; interval
 * coverage, its error and width; QLIKE for models with a forecast variance.
 */
export function scoreTycheonPanel(
  scope: ScoringScope,
  models: readonly ModelForecasts[],
  cells: MetricCells,
  frame: TycheonFrame,
  losses: Map<string, TycheonLosses>,
): void {
  scorePointMetrics(scope, models, cells, frame, losses);
  scoreIntervals(scope, models, cells, frame);
  scope.step('Tycheon point and interval metrics done');
  scoreQlike(scope, models, cells, frame);
  scope.step('QLIKE done');
}

function scorePointMetrics(
  scope: ScoringScope,
  models: readonly ModelForecasts[],
  cells: MetricCells,
  frame: TycheonFrame,
  losses: Map<string, TycheonLosses>,
): void {
  const { seriesUnit } = scope;
  for (let s = 0; s < seriesUnit.length; s++) {
    const unit = seriesUnit[s];
    if (unit === undefined) continue;
    const a = frame.seriesStart[s];
    const b = frame.seriesStart[s + 1];
    if (a === b) continue;
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
      for (let s = 0; s < seriesUnit.length; s++) {
        const unit = seriesUnit[s];
        const a = frame.seriesStart[s];
        const b = frame.seriesStart[s + 1];
        if (unit === undefined || a === b) continue;
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
