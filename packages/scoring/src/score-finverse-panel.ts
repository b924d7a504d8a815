import type { ModelForecasts } from './align-forecasts.ts';
import {
  crossSectionFrame,
  FINVERSE_DIRECTIONS,
  maseOriFrame,
  maseOriMetric,
  PERIODS_PER_YEAR,
  POINTWISE_METRICS,
  PORTFOLIO_METRICS,
  pointwiseFrame,
  pointwiseMetric,
  unitInformationCoefficient,
  unitPortfolio,
} from './finverse-scores.ts';
import type { MetricCells, ScoringScope } from './metric-cells.ts';
import type { TaskRow } from './score-types.ts';

/**
 * The FinVerse cells of a run, only where the tasks assign them: the point-wise metrics (HR, ΔHR, Δ²HR,
 * MASE_rel, MASE_abs at (p,h), MASE_ori) per series, then IC and the portfolio metrics per unit over the
 * cross-sections at each origin instant.
 */
export function scoreFinversePanel(
  scope: ScoringScope,
  models: readonly ModelForecasts[],
  cells: MetricCells,
): void {
  scorePointwise(scope, models, cells);
  scope.step('FinVerse point-wise done');
  scoreCrossSectional(scope, models, cells);
  scope.step('FinVerse cross-sectional and portfolio done');
}

function scorePointwise(scope: ScoringScope, models: readonly ModelForecasts[], cells: MetricCells): void {
  const { panel, seriesUnit, tasksBySeries } = scope;
  const nSeries = panel.seriesIds.length;
  let maxOrigins = 0;
  for (let s = 0; s < nSeries; s++)
    maxOrigins = Math.max(maxOrigins, panel.seriesOriginStart[s + 1] - panel.seriesOriginStart[s]);
  const scratch = new Float64Array(maxOrigins);
  for (let s = 0; s < nSeries; s++) {
    const unit = seriesUnit[s];
    if (unit === undefined) continue;
    const frames = new Map<string, ReturnType<typeof pointwiseFrame>>();
    let oriFrame: ReturnType<typeof maseOriFrame> | undefined;
    for (const t of tasksBySeries[s]) {
      if (!POINTWISE_METRICS.has(t.metric)) continue;
      const direction = FINVERSE_DIRECTIONS[t.metric];
      if (t.metric === 'MASE_ori') {
        oriFrame ??= maseOriFrame(panel, s);
        const c = cells.cell(unit, 'finverse', t.aspect, 'MASE_ori', direction);
        for (let mi = 0; mi < models.length; mi++)
          cells.put(c[mi], maseOriMetric(panel, models[mi], oriFrame));
        continue;
      }
      // Null steps (p or h undefined at the frequency) are counted in TASK_STEPS_UNDEFINED.
      if (t.p_steps === null || t.h_steps === null) continue;
      const fk = `${t.p_steps}|${t.h_steps}`;
      let frame = frames.get(fk);
      if (!frame) {
        frame = pointwiseFrame(panel, s, t.p_steps, t.h_steps);
        frames.set(fk, frame);
      }
      const c = cells.cell(unit, 'finverse', t.aspect, `${t.metric}(${t.p},${t.h})`, direction);
      for (let mi = 0; mi < models.length; mi++)
        cells.put(c[mi], pointwiseMetric(panel, models[mi], t.metric, frame, t.h_steps, scratch));
    }
  }
}

function scoreCrossSectional(
  scope: ScoringScope,
  models: readonly ModelForecasts[],
  cells: MetricCells,
): void {
  const { panel, seriesUnit, tasksBySeries, unitInfo, spacingOf } = scope;
  const unitTasks = new Map<string, Map<string, TaskRow>>();
  for (let s = 0; s < panel.seriesIds.length; s++) {
    const unit = seriesUnit[s];
    if (unit === undefined) continue;
    for (const t of tasksBySeries[s]) {
      if (t.metric !== 'IC' && !PORTFOLIO_METRICS.has(t.metric)) continue;
      if (t.p_steps === null || t.h_steps === null) continue;
      let m = unitTasks.get(unit);
      if (!m) {
        m = new Map();
        unitTasks.set(unit, m);
      }
      m.set(`${t.metric}|${t.p}|${t.h}`, t);
    }
  }
  for (const [unit, ts] of unitTasks) {
    const series = unitInfo.get(unit)!.series;
    const frames = new Map<string, ReturnType<typeof crossSectionFrame>>();
    const portfolios = new Map<string, ReturnType<typeof unitPortfolio>>();
    for (const t of ts.values()) {
      const pSteps = t.p_steps!;
      const hSteps = t.h_steps!;
      const fk = `${pSteps}|${hSteps}`;
      let frame = frames.get(fk);
      if (!frame) {
        frame = crossSectionFrame(panel, series, pSteps, hSteps);
        frames.set(fk, frame);
      }
      const name = `${t.metric}(${t.p},${t.h})`;
      for (const m of models) {
        if (t.metric === 'IC') {
          const ic = unitInformationCoefficient(panel, m, frame, hSteps);
          cells.add(m.model, unit, 'finverse', t.aspect, name, 'higher', ic);
          continue;
        }
        const pk = `${m.model}|${fk}|${t.h}`;
        let pf = portfolios.get(pk);
        if (!pf) {
          const holding = Math.max(1, Math.ceil(hSteps / spacingOf(unit)));
          pf = unitPortfolio(panel, m, frame, hSteps, holding, PERIODS_PER_YEAR[t.h ?? ''] ?? 1);
          portfolios.set(pk, pf);
        }
        const value = pf[t.metric as keyof typeof pf];
        cells.add(m.model, unit, 'finverse', t.aspect, name, FINVERSE_DIRECTIONS[t.metric], value);
      }
    }
  }
}
