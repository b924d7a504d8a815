import type { ModelForecasts } from './align-forecasts.ts';
import type { EvaluationPanel } from './build-evaluation-panel.ts';
import { compareValues, type ScoringScope } from './metric-cells.ts';
import { coverageJson, coverageOf, coveredScope, type PanelCoverage } from './panel-coverage.ts';
import { baselinesWin, rankBlock, rankBlocks } from './rank-blocks.ts';
import type { ScoringResults, WindowScores } from './results-schema.ts';
import { scoreModels } from './score-models.ts';
import { selectModelOrigins, selectPanelOrigins } from './select-panel-origins.ts';
import { crpsKindOf } from './tycheon-scores.ts';

/** Every section of the results that depends on which origins are scored (all of them, or one window's). */
export type SelectionScores = Omit<WindowScores, 'window'>;

/** Origins, points and series with an origin in a panel (a window's panel keeps every series index). */
export function originCounts(panel: EvaluationPanel): SelectionScores['origins'] {
  let points = 0;
  let maxH = 0;
  let series = 0;
  for (let o = 0; o < panel.horizon.length; o++) {
    points += panel.horizon[o];
    maxH = Math.max(maxH, panel.horizon[o]);
  }
  for (let s = 0; s < panel.seriesIds.length; s++)
    if (panel.seriesOriginStart[s + 1] > panel.seriesOriginStart[s]) series++;
  return { series, origins: panel.horizon.length, points, max_horizon: maxH };
}

/**
 * Scores `models` on the scope's panel: the baselines and the full-coverage models on the whole task set,
 * each partial model on its own origins with the baselines on the same points; then the rank blocks and the
 * cells a baseline leads. A rank block ranks every model with a path in each of its units on the paths they
 * all forecast (COMPARISON_RULES, docs/decisions/0059). The same function scores all origins and each window.
 */
export function scoreSelection(scope: ScoringScope, models: readonly ModelForecasts[]): SelectionScores {
  const { panel, seriesUnit, unitInfo } = scope;
  const main = scoreModels(
    scope,
    models.filter((m) => !m.covered),
  );
  scope.step('Diebold–Mariano verdicts done');
  const taskSet = coverageOf(panel, seriesUnit, unitInfo, null);
  const partial = scorePartialModels(scope, models, main, taskSet.points);
  const values = partial.values.sort(compareValues);
  const baselineNames = new Set(models.filter((m) => m.baseline).map((m) => m.model));
  // Values on the whole task set; the rank blocks rank on shared points (COMPARISON_RULES.ranks).
  const comparable = values.filter((v) => !v.partial);
  return {
    origins: originCounts(panel),
    task_set: { series: taskSet.series, origins: taskSet.origins, points: taskSet.points },
    models: models.map((m) => ({
      model: m.model,
      baseline: m.baseline,
      crps_kind: crpsKindOf(m),
      coverage: coverageJson(partial.coverage.get(m.model) ?? taskSet, taskSet),
    })),
    values,
    pooled: partial.pooled,
    verdicts: { ...main.verdicts, rows: partial.verdictRows },
    ranks: rankBlocks({
      scope,
      models,
      comparable,
      coverage: (model) => partial.coverage.get(model),
    }),
    same_points: partial.samePoints,
    baselines_win: baselinesWin(comparable, baselineNames),
  };
}

/**
 * Each partial model on its own origins, with the baselines restricted to the same points; appended to
 * the whole-task-set values and verdict rows of `main`.
 */
function scorePartialModels(
  scope: ScoringScope,
  models: readonly ModelForecasts[],
  main: ReturnType<typeof scoreModels>,
  taskPoints: number,
): {
  values: ScoringResults['values'];
  pooled: ScoringResults['pooled'];
  verdictRows: ScoringResults['verdicts']['rows'];
  samePoints: ScoringResults['same_points'];
  coverage: Map<string, PanelCoverage>;
} {
  const { panel, seriesUnit, unitInfo } = scope;
  const coverage = new Map<string, PanelCoverage>();
  const values = [...main.values];
  const pooled = [...main.pooled];
  const verdictRows = [...main.verdicts.rows];
  const samePoints: ScoringResults['same_points'] = [];
  // The baselines every partial model is compared with on its points: those scored on every origin (GARCH,
  // scored only where it was fitted, is itself a partial model).
  const baselines = models.filter((m) => m.baseline && !m.covered);
  const baselineNames = new Set(baselines.map((m) => m.model));
  for (const m of models) {
    if (!m.covered) continue;
    const cov = coverageOf(panel, seriesUnit, unitInfo, m.covered);
    coverage.set(m.model, cov);
    const selection = selectPanelOrigins(panel, m.covered);
    const sub = scoreModels(
      {
        ...scope,
        ...coveredScope(selection.panel, seriesUnit, unitInfo),
        verdictsFor: new Set([m.model]),
        step: () => {},
      },
      [...baselines, m].map((x) => selectModelOrigins(panel, selection, x)),
    );
    for (const v of sub.values) {
      if (v.model !== m.model) continue;
      // A unit it covers fully gives the same value as on the whole task set: it is ranked there.
      values.push(cov.fullUnits.has(v.unit) ? v : { ...v, partial: true });
    }
    for (const r of sub.verdicts.rows) verdictRows.push({ ...r, partial: true });
    for (const p of sub.pooled) if (p.model === m.model) pooled.push({ ...p, partial: true });
    samePoints.push({
      model: m.model,
      values: sub.values.filter((v) => v.model !== m.model),
      pooled: sub.pooled.filter((p) => p.model !== m.model),
      ranks: rankBlock(sub.values, {
        origins: cov.origins,
        points: cov.points,
        share: taskPoints ? cov.points / taskPoints : 0,
      }),
      baselines_win: baselinesWin(sub.values, baselineNames),
    });
    scope.step(`${m.model}: scored on its ${cov.origins} origin(s), the baselines on the same points`);
  }
  return { values, pooled, verdictRows, samePoints, coverage };
}
