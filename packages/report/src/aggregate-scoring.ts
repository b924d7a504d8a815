import { type BaselineWinGroup, groupBaselinesWin, type ScoringResults } from '@asof/scoring';
import { FREQUENCY_ORDER } from './chart-base.ts';

export interface UnitParts {
  scope: string;
  category: string;
  detail: string;
  frequency: string;
}

/** A scoring unit key `Scope / Category / Detail category / Frequency` split into its parts. */
export function parseUnit(unit: string): UnitParts {
  const parts = unit.split(' / ');
  if (parts.length < 4) return { scope: unit, category: unit, detail: unit, frequency: '' };
  const frequency = parts.pop()!;
  const [scope, category, ...detail] = parts;
  return { scope, category, detail: detail.join(' / '), frequency };
}

export const POOLED_UNIT = 'all units (pooled)';

export interface VerdictCell {
  model: string;
  unit: string;
  verdict: 'beats' | 'indistinguishable' | 'worse' | 'n/a';
  n: number;
  p_se: number | null;
  p_crps: number | null;
  p_se_worse: number | null;
  p_crps_worse: number | null;
  /** The cell's text: one-sided p-values that the model is better (squared error | CRPS). */
  text: string;
}

function p(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return 'n/a';
  return x < 0.001 ? x.toExponential(0) : x.toFixed(3);
}

/** The model × unit verdict grid (pooled row first), from the verdict rows of results.json. */
export function verdictCells(results: ScoringResults): VerdictCell[] {
  const cells = results.verdicts.rows.map(
    (r): VerdictCell => ({
      model: r.model,
      unit: r.unit === '*' ? POOLED_UNIT : r.unit,
      verdict: r.verdict ?? 'n/a',
      n: r.n,
      p_se: r.squared_error?.p_model_better ?? null,
      p_crps: r.crps?.p_model_better ?? null,
      p_se_worse: r.squared_error?.p_model_worse ?? null,
      p_crps_worse: r.crps?.p_model_worse ?? null,
      text: `${p(r.squared_error?.p_model_better)} | ${p(r.crps?.p_model_better)}`,
    }),
  );
  return cells.sort(
    (a, b) =>
      Number(b.unit === POOLED_UNIT) - Number(a.unit === POOLED_UNIT) ||
      a.unit.localeCompare(b.unit) ||
      a.model.localeCompare(b.model),
  );
}

export interface HorizonMetricRow {
  model: string;
  metric: string;
  frequency: string;
  horizon: number;
  /** e.g. 'Q · H 4' (just the frequency when the split's horizons are unknown: horizon 0). */
  horizon_label: string;
  value: number;
  units: number;
}

const HORIZON_METRICS = /^tycheon\.(crps|qlike|coverage_\d+)\*?$/;

/**
 * CRPS, interval coverage and QLIKE per model against the forecast horizon: results.json holds horizon-end
 * metrics, one horizon H per unit (its frequency's prediction length, from the split's config), so each
 * point is the mean over the units of one frequency. (The verdict rows' `horizon` is the DM lag window, not H.)
 */
export function horizonMetrics(
  results: ScoringResults,
  horizons: Record<string, number> = {},
): HorizonMetricRow[] {
  const groups = new Map<
    string,
    { row: Omit<HorizonMetricRow, 'value' | 'units'>; sum: number; n: number }
  >();
  for (const v of results.values) {
    if (!HORIZON_METRICS.test(v.metric) || v.value === null || !Number.isFinite(v.value)) continue;
    const { frequency } = parseUnit(v.unit);
    const horizon = horizons[frequency] ?? 0;
    const metric = v.metric.replace(/^tycheon\./, '');
    const key = `${v.model}\u0000${metric}\u0000${frequency}\u0000${horizon}`;
    const g = groups.get(key) ?? {
      row: {
        model: v.model,
        metric,
        frequency,
        horizon,
        horizon_label: horizon ? `${frequency} · H ${horizon}` : frequency,
      },
      sum: 0,
      n: 0,
    };
    g.sum += v.value;
    g.n += 1;
    groups.set(key, g);
  }
  return [...groups.values()]
    .map((g) => ({ ...g.row, value: g.sum / g.n, units: g.n }))
    .sort(
      (a, b) =>
        a.metric.localeCompare(b.metric) ||
        FREQUENCY_ORDER.indexOf(a.frequency) - FREQUENCY_ORDER.indexOf(b.frequency) ||
        a.horizon - b.horizon ||
        a.model.localeCompare(b.model),
    );
}

export type { BaselineWinGroup } from '@asof/scoring';

/**
 * "Where the baselines win", grouped by category, top cells first (the full list stays in results.json):
 * @asof/scoring's groupBaselinesWin, so the report and leaderboard.md show the same groups and cells.
 */
export function baselinesWinByCategory(results: ScoringResults): BaselineWinGroup[] {
  return groupBaselinesWin(results.baselines_win);
}

export interface RankPositionRow {
  group: string;
  model: string;
  position: number;
  overall: number;
}

/** FinVerse positions per model overall and in every scope / category / frequency breakdown. */
export function rankPositions(results: ScoringResults): RankPositionRow[] {
  const rows: RankPositionRow[] = [];
  const add = (group: string, block: ScoringResults['ranks']['overall']) => {
    for (const m of block.models)
      rows.push({ group, model: m.model, position: m.position, overall: m.overall });
  };
  add('overall', results.ranks.overall);
  for (const [k, b] of Object.entries(results.ranks.by_scope)) add(`scope: ${k}`, b);
  for (const [k, b] of Object.entries(results.ranks.by_category)) add(`category: ${k}`, b);
  for (const [k, b] of Object.entries(results.ranks.by_frequency)) add(`frequency: ${k}`, b);
  return rows;
}
