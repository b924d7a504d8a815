import { cmp, type UnitInfo } from './metric-cells.ts';
import { nearlyEqual } from './metrics/float-tolerance.ts';
import {
  type RankAggregateMetric,
  type RankAggregateScore,
  rankAggregate,
} from './metrics/rank-aggregate.ts';
import type { MetricValue, RankBlock, ScoringResults } from './results-schema.ts';

/** FinVerse §4.2 rank aggregation of the FinVerse values given (nominal-direction cells are not ranked). */
export function rankBlock(values: readonly MetricValue[]): RankBlock {
  const metrics: Record<string, RankAggregateMetric> = {};
  const scores: RankAggregateScore[] = [];
  for (const v of values) {
    if (v.direction === 'nominal') continue;
    metrics[v.metric] = { aspect: v.aspect, direction: v.direction };
    scores.push({ model: v.model, unit: v.unit, metric: v.metric, value: v.value ?? Number.NaN });
  }
  const r = rankAggregate(scores, metrics);
  return {
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

/**
 * The rank blocks of results.json (overall, by scope, category, frequency) over the comparable FinVerse
 * values. A block ranks the models covering every point of its units (COMPARISON_RULES.ranks): `fullUnits`
 * gives a partial model's fully covered units (absent: a full-coverage model).
 */
export function rankBlocks(
  comparable: readonly MetricValue[],
  unitInfo: Map<string, UnitInfo>,
  fullUnits: (model: string) => ReadonlySet<string> | undefined,
): ScoringResults['ranks'] {
  const finverse = comparable.filter((v) => v.family === 'finverse');
  const rankOf = (keep: (unit: string) => boolean) => {
    const cells = finverse.filter((v) => keep(v.unit));
    const units = [...new Set(cells.map((v) => v.unit))];
    const inBlock = new Map<string, boolean>();
    const ranked = (model: string) => {
      let ok = inBlock.get(model);
      if (ok === undefined) {
        const full = fullUnits(model);
        ok = full === undefined || units.every((u) => full.has(u));
        inBlock.set(model, ok);
      }
      return ok;
    };
    return rankBlock(cells.filter((v) => ranked(v.model)));
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
