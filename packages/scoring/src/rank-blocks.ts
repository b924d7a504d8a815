import type { ModelForecasts } from './align-forecasts.ts';
import type { EvaluationPanel } from './build-evaluation-panel.ts';
import { cmp, MetricCells, type ScoringScope } from './metric-cells.ts';
import { nearlyEqual } from './metrics/float-tolerance.ts';
import {
  type RankAggregateMetric,
  type RankAggregateScore,
  rankAggregate,
} from './metrics/rank-aggregate.ts';
import { coveredScope, type PanelCoverage } from './panel-coverage.ts';
import type { MetricValue, RankBlock, ScoringResults } from './results-schema.ts';
import { scoreFinversePanel } from './score-finverse-panel.ts';
import { selectModelOrigins, selectPanelOrigins } from './select-panel-origins.ts';

/** What every rank block of results.json ranks by (its metric family and the aggregate it ranks). */
export const RANKED_BY =
  "FinVerse's rank aggregation (docs/glossary.md) of the FinVerse metrics (the family finverse; metrics lists them): the mean of each metric per unit, the models ranked per (unit, metric) cell, the geometric mean of a model's cell ranks per aspect (K), the models ranked by K per aspect, and overall = the sum of the aspect ranks (lower is better)";

/** The points a rank block's cells are computed on. */
export interface RankPoints {
  origins: number;
  points: number;
  /** points / the points of the block's units in the task set. */
  share: number;
}

/** FinVerse §4.2 rank aggregation of the FinVerse values given (nominal-direction cells are not ranked). */
export function rankBlock(
  values: readonly MetricValue[],
  points: RankPoints,
  notRanked: RankBlock['not_ranked'] = [],
): RankBlock {
  const metrics: Record<string, RankAggregateMetric> = {};
  const scores: RankAggregateScore[] = [];
  for (const v of values) {
    if (v.direction === 'nominal' || v.family !== 'finverse') continue;
    metrics[v.metric] = { aspect: v.aspect, direction: v.direction };
    scores.push({ model: v.model, unit: v.unit, metric: v.metric, value: v.value ?? Number.NaN });
  }
  const r = rankAggregate(scores, metrics);
  return {
    family: 'finverse',
    ranked_by: RANKED_BY,
    metrics: Object.keys(metrics).sort(cmp),
    points,
    not_ranked: notRanked,
    aspects: r.aspects,
    cells_per_aspect: r.cellsPerAspect,
    models: r.models.map((m) => ({
      model: m.model,
      aspect_k: m.aspectK,
      aspect_rank: m.aspectRank,
      overall: m.overall,
      position: m.position,
      missing_cells: m.missingCells,
    })),
  };
}

/** What rankBlocks needs besides the values: the scope, the models and what each partial model covers. */
export interface RankContext {
  scope: ScoringScope;
  models: readonly ModelForecasts[];
  /**
   * The FinVerse values on the whole task set: the full-coverage models', and the partial models' in the
   * units they cover fully (the same numbers there).
   */
  comparable: readonly MetricValue[];
  /** A partial model's coverage (undefined: a full-coverage model). */
  coverage: (model: string) => PanelCoverage | undefined;
}

/**
 * The rank blocks of results.json (overall, by scope, category, frequency), on shared points
 * (COMPARISON_RULES.ranks, docs/decisions/0059): a block ranks every model that forecasts at least one
 * (series, origin) path in each of its units, and computes every ranked model's cells on the paths that
 * all of them forecast (whole paths, so every step). With only full-coverage models (or partial ones
 * covering the block's units fully) those are all of the block's points and the cells are the values of
 * results.json; otherwise the ranked models' FinVerse cells are computed again on the shared paths.
 */
export function rankBlocks(ctx: RankContext): ScoringResults['ranks'] {
  const { scope, models, coverage } = ctx;
  const { unitInfo } = scope;
  const finverse = ctx.comparable.filter((v) => v.family === 'finverse');
  const taskPoints = unitPoints(scope, null);
  const rankOf = (keep: (unit: string) => boolean) => {
    const units = [...unitInfo.keys()].filter(keep);
    const inUnits = new Set(units);
    const total = units.reduce((a, u) => a + (taskPoints.get(u)?.points ?? 0), 0);
    const notRanked: RankBlock['not_ranked'] = [];
    const ranked: ModelForecasts[] = [];
    for (const m of models) {
      const cov = coverage(m.model);
      const missing = cov ? units.filter((u) => !cov.units.has(u)).length : 0;
      if (missing === 0) ranked.push(m);
      else
        notRanked.push({
          model: m.model,
          reason: `forecasts no path of ${missing} of the block's ${units.length} unit(s)`,
        });
    }
    // The partial models that do not cover every path of the block: the shared paths are their intersection.
    const cutting = ranked.filter((m) => {
      const cov = coverage(m.model);
      return cov !== undefined && units.some((u) => !cov.fullUnits.has(u));
    });
    const all = taskPointsOf(taskPoints, units, total);
    if (cutting.length === 0) {
      const names = new Set(ranked.map((m) => m.model));
      return rankBlock(
        finverse.filter((v) => inUnits.has(v.unit) && names.has(v.model)),
        all,
        notRanked,
      );
    }
    const s = sharedPaths(scope, ranked, cutting, inUnits);
    const own = s.values;
    let origins = 0;
    let points = 0;
    for (const u of units) {
      const c = s.counted.get(u);
      origins += c?.origins ?? 0;
      points += c?.points ?? 0;
    }
    return rankBlock(own, { origins, points, share: total ? points / total : 0 }, notRanked);
  };
  const group = (field: 'scope' | 'category' | 'frequency') => {
    const out: Record<string, RankBlock> = {};
    const keys = [...new Set([...unitInfo.values()].map((u) => u[field]))].sort();
    for (const k of keys) out[k] = rankOf((unit) => unitInfo.get(unit)?.[field] === k);
    return out;
  };
  return {
    overall: rankOf(() => true),
    by_scope: group('scope'),
    by_category: group('category'),
    by_frequency: group('frequency'),
  };
}

function taskPointsOf(
  taskPoints: Map<string, RankPoints>,
  units: readonly string[],
  total: number,
): RankPoints {
  let origins = 0;
  for (const u of units) origins += taskPoints.get(u)?.origins ?? 0;
  return { origins, points: total, share: total ? 1 : 0 };
}

/** Origins and points per unit of the scope's scored series (share left 1), on a panel. */
function unitPoints(scope: ScoringScope, panel: EvaluationPanel | null): Map<string, RankPoints> {
  const p = panel ?? scope.panel;
  const out = new Map<string, RankPoints>();
  for (let s = 0; s < p.seriesIds.length; s++) {
    const unit = scope.seriesUnit[s];
    if (unit === undefined) continue;
    let c = out.get(unit);
    if (!c) {
      c = { origins: 0, points: 0, share: 1 };
      out.set(unit, c);
    }
    for (let o = p.seriesOriginStart[s]; o < p.seriesOriginStart[s + 1]; o++) {
      c.origins++;
      c.points += p.horizon[o];
    }
  }
  return out;
}

/**
 * The FinVerse cells of `ranked` in the block's units on the paths every model of `cutting` forecasts (the
 * full-coverage models and the partial ones covering the units fully forecast them all), and the origins
 * and points of those paths per unit. Only the block's units are kept: elsewhere a ranked partial model
 * may forecast nothing.
 */
function sharedPaths(
  scope: ScoringScope,
  ranked: readonly ModelForecasts[],
  cutting: readonly ModelForecasts[],
  units: ReadonlySet<string>,
): { values: MetricValue[]; counted: Map<string, RankPoints> } {
  const { panel, seriesUnit, unitInfo } = scope;
  const keep = new Uint8Array(panel.horizon.length);
  for (let o = 0; o < keep.length; o++) {
    const unit = seriesUnit[panel.originSeries[o]];
    keep[o] = unit !== undefined && units.has(unit) ? 1 : 0;
  }
  for (const m of cutting) for (let o = 0; o < keep.length; o++) if (!m.covered![o]) keep[o] = 0;
  const selection = selectPanelOrigins(panel, keep);
  const sub: ScoringScope = {
    ...scope,
    ...coveredScope(selection.panel, seriesUnit, unitInfo),
    step: () => {},
  };
  const ms = ranked.map((m) => selectModelOrigins(panel, selection, m));
  const cells = new MetricCells(ms);
  scoreFinversePanel(sub, ms, cells);
  scope.step(
    `FinVerse cells on the paths shared with ${cutting.map((m) => m.model).join(', ')} (rank blocks)`,
  );
  return { values: cells.values(), counted: unitPoints(sub, selection.panel) };
}

/** Headline cells: every FinVerse metric, and Tycheon MAE/RMSE/MASE/CRPS. */
export function isHeadline(v: MetricValue): boolean {
  return (
    v.family === 'finverse' ||
    ['tycheon.mae', 'tycheon.rmse', 'tycheon.mase', 'tycheon.crps', 'tycheon.crps*'].includes(v.metric)
  );
}

/** (unit, metric) cells where a baseline has the best value (ties count): computed, never edited. */
export function baselinesWin(
  values: readonly MetricValue[],
  baselines: Set<string>,
): ScoringResults['baselines_win'] {
  const cells = new Map<string, MetricValue[]>();
  for (const v of values) {
    if (!isHeadline(v) || v.value === null || v.direction === 'nominal') continue;
    const key = `${v.unit}\u0000${v.metric}`;
    cells.set(key, [...(cells.get(key) ?? []), v]);
  }
  const out: ScoringResults['baselines_win'] = [];
  for (const vs of cells.values()) {
    const sign = vs[0].direction === 'higher' ? -1 : 1;
    const best = Math.min(...vs.map((v) => sign * (v.value as number)));
    // Ties up to rounding lead together (the rank aggregation's tolerance).
    const leaders = vs.filter((v) => nearlyEqual(sign * (v.value as number), best)).map((v) => v.model);
    const baseLeaders = leaders.filter((m) => baselines.has(m)).sort();
    if (baseLeaders.length === 0) continue;
    const submitted = vs.filter((v) => !baselines.has(v.model));
    submitted.sort((a, b) => sign * ((a.value as number) - (b.value as number)));
    out.push({
      unit: vs[0].unit,
      metric: vs[0].metric,
      leaders: baseLeaders,
      value: vs[0].direction === 'higher' ? -best : best,
      best_submitted: submitted[0]?.model ?? null,
      best_submitted_value: submitted[0]?.value ?? null,
    });
  }
  return out.sort((a, b) => cmp(a.unit, b.unit) || cmp(a.metric, b.metric));
}
