import { InputError } from '@asof/schema';
import { nearlyEqual } from './float-tolerance.ts';

export type MetricDirection = 'higher' | 'lower';

/** One score: typically one series' value of one metric column (e.g. 'HR(1m,1m)') for one model. */
export interface RankAggregateScore {
  model: string;
  /** Detail category × frequency combination, e.g. 'equity_price|BD'. */
  unit: string;
  metric: string;
  value: number;
}

export interface RankAggregateMetric {
  /** Evaluation group: FinVerse uses 'pointwise', 'cross_sectional', 'portfolio'. */
  aspect: string;
  direction: MetricDirection;
}

export interface RankAggregateModel {
  model: string;
  /** K per aspect: geometric mean of the model's (unit, metric) ranks within that aspect. */
  aspectK: Record<string, number>;
  /** Rank of K among models per aspect (1 = best; ties share the average rank). */
  aspectRank: Record<string, number>;
  /** Σ of aspect ranks. Lower is better. */
  overall: number;
  /** Competition position by `overall` (1, 2, 2, 4 …); models with equal `overall` share it. */
  position: number;
  /** (unit, metric) cells where this model had no finite score and was ranked last. */
  missingCells: number;
}

export interface RankAggregateResult {
  /** Sorted by position, then model name. */
  models: RankAggregateModel[];
  aspects: string[];
  /** Number of ranked (unit, metric) cells per aspect. */
  cellsPerAspect: Record<string, number>;
}

/**
 * FinVerse §4.2 overall rank aggregation:
 *  1. mean score of each metric within every unit (detail category × frequency), per model;
 *  2. rank models separately for each (unit, metric) (1 = best, by the metric's direction);
 *  3. per evaluation group (aspect), K = geometric mean of the model's ranks over that aspect's cells;
 *  4. rank models by K within each aspect (lower K is better);
 *  5. overall = Σ of the aspect ranks (lower is better).
 * Tie handling (the seed is silent): equal values (up to rounding, RELATIVE_TOLERANCE) share the average
 * of the ranks they span (fractional ranks, e.g. 1.5), at steps 2 and 4. Non-finite scores are ignored in the mean; a model with no finite
 * score in a cell that others have is ranked after all models that have one (sharing the average of the
 * trailing ranks) and counted in `missingCells`. A cell no model has is skipped. An aspect without cells
 * contributes nothing to `overall`.
 */
export function rankAggregate(
  scores: Iterable<RankAggregateScore>,
  metrics: Readonly<Record<string, RankAggregateMetric>>,
): RankAggregateResult {
  // Step 1: per (unit, metric) → model → running mean.
  const cells = new Map<
    string,
    { unit: string; metric: string; sums: Map<string, { sum: number; n: number }> }
  >();
  const models = new Set<string>();
  for (const s of scores) {
    const def = metrics[s.metric];
    if (def === undefined) {
      throw new InputError(
        'RANK_UNKNOWN_METRIC',
        `rankAggregate: metric '${s.metric}' (model ${s.model}, unit ${s.unit}) has no aspect/direction; ` +
          `known metrics: ${Object.keys(metrics).join(', ')}.`,
        { context: { metric: s.metric, model: s.model, unit: s.unit } },
      );
    }
    models.add(s.model);
    const key = `${s.unit}\u0000${s.metric}`;
    let cell = cells.get(key);
    if (cell === undefined) {
      cell = { unit: s.unit, metric: s.metric, sums: new Map() };
      cells.set(key, cell);
    }
    if (!Number.isFinite(s.value)) continue;
    const acc = cell.sums.get(s.model);
    if (acc === undefined) cell.sums.set(s.model, { sum: s.value, n: 1 });
    else {
      acc.sum += s.value;
      acc.n++;
    }
  }
  const modelList = [...models].sort();
  const aspects = [...new Set(Object.values(metrics).map((m) => m.aspect))].sort();
  // Steps 2–3: accumulate log-ranks per (model, aspect).
  const logSum = new Map<string, number>();
  const cellsPerAspect: Record<string, number> = Object.fromEntries(aspects.map((a) => [a, 0]));
  const missing = new Map<string, number>(modelList.map((m) => [m, 0]));
  for (const cell of cells.values()) {
    if (cell.sums.size === 0) continue;
    const { aspect, direction } = metrics[cell.metric];
    const present: { model: string; value: number }[] = [];
    const absent: string[] = [];
    for (const model of modelList) {
      const acc = cell.sums.get(model);
      if (acc === undefined) absent.push(model);
      else present.push({ model, value: acc.sum / acc.n });
    }
    const ranks = averageRankBy(present, direction);
    // Absent models share positions present.length+1 … modelList.length.
    const absentRank = (present.length + 1 + modelList.length) / 2;
    for (const model of absent) {
      ranks.set(model, absentRank);
      missing.set(model, (missing.get(model) ?? 0) + 1);
    }
    cellsPerAspect[aspect]++;
    for (const [model, rank] of ranks) {
      const key = `${model}\u0000${aspect}`;
      logSum.set(key, (logSum.get(key) ?? 0) + Math.log(rank));
    }
  }
  // Step 4: rank K within each aspect; step 5: sum.
  const aspectK = new Map<string, Record<string, number>>(modelList.map((m) => [m, {}]));
  const aspectRank = new Map<string, Record<string, number>>(modelList.map((m) => [m, {}]));
  const overall = new Map<string, number>(modelList.map((m) => [m, 0]));
  for (const aspect of aspects) {
    const count = cellsPerAspect[aspect];
    if (count === 0) continue;
    const ks = modelList.map((model) => ({
      model,
      value: Math.exp((logSum.get(`${model}\u0000${aspect}`) ?? 0) / count),
    }));
    const ranks = averageRankBy(ks, 'lower');
    for (const { model, value } of ks) {
      aspectK.get(model)![aspect] = value;
      const r = ranks.get(model)!;
      aspectRank.get(model)![aspect] = r;
      overall.set(model, overall.get(model)! + r);
    }
  }
  const result = modelList.map((model) => ({
    model,
    aspectK: aspectK.get(model)!,
    aspectRank: aspectRank.get(model)!,
    overall: overall.get(model)!,
    position: 0,
    missingCells: missing.get(model)!,
  }));
  result.sort((a, b) => a.overall - b.overall || (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
  for (let i = 0; i < result.length; i++) {
    result[i].position =
      i > 0 && result[i].overall === result[i - 1].overall ? result[i - 1].position : i + 1;
  }
  return { models: result, aspects, cellsPerAspect };
}

/**
 * 1 = best by direction; ties share the average of the ranks they span. Values equal up to rounding
 * (nearlyEqual to the first of their run) are ties: two unit means that differ only by summation order
 * share 5.5/5.5 rather than 5/6.
 */
function averageRankBy(
  items: { model: string; value: number }[],
  direction: MetricDirection,
): Map<string, number> {
  const sign = direction === 'higher' ? -1 : 1;
  const sorted = [...items].sort((a, b) => sign * (a.value - b.value));
  const ranks = new Map<string, number>();
  let i = 0;
  while (i < sorted.length) {
    let j = i + 1;
    while (j < sorted.length && nearlyEqual(sorted[j].value, sorted[i].value)) j++;
    const r = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) ranks.set(sorted[k].model, r);
    i = j;
  }
  return ranks;
}
