import { readFileSync } from 'node:fs';
import { canonicalJson, sha256Hex } from '@asof/manifest';
import { InputError } from '@asof/schema';
import type { ModelForecasts } from './align-forecasts.ts';
import type { EvaluationPanel } from './build-evaluation-panel.ts';
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
import { makePanelBaselines } from './make-baseline-forecasts.ts';
import { type DieboldMarianoResult, dieboldMariano } from './metrics/diebold-mariano.ts';
import { directionalAccuracy } from './metrics/directional-accuracy.ts';
import { fintsbSignalMetrics } from './metrics/fintsb-signal-metrics.ts';
import { intervalCoverage } from './metrics/interval-coverage.ts';
import { mae } from './metrics/mae.ts';
import { maseVsRandomWalk } from './metrics/mase-vs-random-walk.ts';
import { mse } from './metrics/mse.ts';
import { qlike } from './metrics/qlike.ts';
import {
  type RankAggregateMetric,
  type RankAggregateScore,
  rankAggregate,
} from './metrics/rank-aggregate.ts';
import { rmse } from './metrics/rmse.ts';
import { topkBacktest } from './metrics/topk-backtest.ts';
import { topkDropBacktest } from './metrics/topk-drop-backtest.ts';
import { verdictVsRandomWalk } from './metrics/verdict-vs-random-walk.ts';
import { positiveSeries } from './positive-series.ts';
import type { MetricValue, RankBlock, ScoringConfig, ScoringResults, VerdictRow } from './results-schema.ts';
import { BASELINE_MODELS, type BaselineModel, RANDOM_WALK, type TaskRow } from './score-types.ts';
import { selectModelOrigins, selectPanelOrigins } from './select-panel-origins.ts';
import { stepsBetween } from './steps-between.ts';
import {
  crpsKindOf,
  forecastVariance,
  intervalBounds,
  randomWalkCrps,
  type TycheonLosses,
  tycheonFrame,
  tycheonLosses,
} from './tycheon-scores.ts';

export interface ScoreOptions {
  /** One-sided DM level for the verdict (default 0.05). */
  alpha?: number;
  /** Run DM on overlapping origins anyway (HLN with H − 1 autocovariances). Default false: verdicts refused. */
  allowOverlap?: boolean;
  /** The split's origins policy (manifest config.origins / origins_policy); null when absent. */
  originsPolicy?: string | null;
  /**
   * Steps between consecutive origins, for the portfolio holding period in origins and the backtests'
   * annualisation. Default: measured per unit from the origins (origin_index, else the calendar).
   */
  originStride?: number;
  /** Baselines to score besides the random walk (default: drift and seasonal_naive). */
  baselines?: readonly BaselineModel[];
  /** Central interval levels for coverage/width (default 0.5, 0.8, 0.9). */
  intervals?: readonly number[];
  /** Progress lines for long runs ("[12.3s] FinVerse point-wise"); not part of the hashed config. */
  log?: (line: string) => void;
}

export interface ScorePanelInput {
  tasks: readonly TaskRow[];
  panel: EvaluationPanel;
  /** Submitted models, aligned to the panel (see alignForecasts). Baselines are added here. */
  models: readonly ModelForecasts[];
  options?: ScoreOptions;
  datasetId?: string | null;
  parentDatasetId?: string | null;
  forecasts?: ScoringResults['forecasts'];
}

export const SCORER_VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;

export function unitKeyOf(t: Pick<TaskRow, 'scope' | 'category' | 'detail_category' | 'frequency'>): string {
  return `${t.scope} / ${t.category} / ${t.detail_category} / ${t.frequency}`;
}

/** The resolved scoring config (what config_sha256 hashes). */
export function resolveScoringConfig(options: ScoreOptions = {}): ScoringConfig {
  const extra = options.baselines ?? BASELINE_MODELS.filter((b) => b !== RANDOM_WALK);
  return {
    alpha: options.alpha ?? 0.05,
    allow_overlap: options.allowOverlap ?? false,
    origins_policy: options.originsPolicy ?? null,
    origin_stride: options.originStride ?? null,
    baselines: [RANDOM_WALK, ...extra.filter((b) => b !== RANDOM_WALK)],
    tycheon_space: 'horizon_end_log_return',
    intervals: [...(options.intervals ?? [0.5, 0.8, 0.9])],
  };
}

/**
 * Submitted models named like a baseline (a file written by `asof baselines`) must equal the scorer's own
 * baseline on every point they give of every scored (tasked) series (relative 1e-9): they are then dropped (the scorer's copy is scored once) and
 * counted in a warning; any difference refuses the file, naming the first differing point.
 */
function checkSubmittedBaselines(
  panel: EvaluationPanel,
  own: readonly ModelForecasts[],
  submitted: readonly ModelForecasts[],
  seriesFrequency: ArrayLike<string | undefined>,
  warnings: ScoringResults['warnings'],
): ModelForecasts[] {
  const kept: ModelForecasts[] = [];
  let checked = 0;
  for (const m of submitted) {
    if (!(BASELINE_MODELS as readonly string[]).includes(m.model)) {
      kept.push(m);
      continue;
    }
    const kind = m.model as BaselineModel;
    const mine = own.find((b) => b.model === kind);
    const ref = mine ?? makePanelBaselines(panel, seriesFrequency, [kind])[0];
    for (let o = 0; o < panel.horizon.length; o++) {
      // Series without tasks are not scored, and their frequency (the season length) is unknown here.
      if (seriesFrequency[panel.originSeries[o]] === undefined) continue;
      if (m.covered && !m.covered[o]) continue;
      for (let k = 0; k < panel.horizon[o]; k++) {
        const i = panel.targetOffset[o] + k;
        const a = m.point[i];
        const b = ref.point[i];
        if (!(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)))) {
          throw new InputError(
            'FORECAST_BASELINE_MISMATCH',
            `model '${kind}' at ${panel.seriesIds[panel.originSeries[o]]} @ ${panel.originIso[o]} step ${k + 1}: submitted ${a}, the scorer's own ${kind} baseline gives ${b}; the names ${BASELINE_MODELS.join(', ')} are reserved for those baselines (write them with 'asof baselines') — rename your model`,
            { context: { value: a, expected: b, series_id: panel.seriesIds[panel.originSeries[o]] } },
          );
        }
      }
    }
    checked++;
    // Not among the scorer's baselines (config.baselines leaves it out): scored as submitted, on every
    // origin (it equals the scorer's own where it was given), like the other baselines.
    if (!mine) kept.push(m.covered ? ref : m);
  }
  if (checked) {
    warnings.push({
      code: 'SUBMITTED_BASELINES_MATCH',
      message:
        "submitted forecasts named like a baseline equal the scorer's own baselines on every point; each is scored once",
      count: checked,
    });
  }
  return kept;
}

interface Acc {
  model: string;
  unit: string;
  family: MetricValue['family'];
  aspect: string;
  metric: string;
  direction: MetricValue['direction'];
  sum: number;
  n: number;
  /** A value (finite or not) was recorded: the model is scored on this cell. */
  touched: boolean;
}

/**
 * Scores every model (the submitted ones plus the baselines) on a panel: FinVerse metrics where the
 * tasks assign them, FinTSB and Tycheon metrics, Diebold–Mariano verdicts against the random walk, and
 * FinVerse §4.2 rank aggregation with scope/category/frequency breakdowns. A partial model (`covered`) is
 * scored on its own origins with the baselines on the same points (same_points), and ranked only in the
 * blocks whose every point it covers (COMPARISON_RULES, docs/decisions/0014).
 */
export function scorePanel(input: ScorePanelInput): ScoringResults {
  const { panel, tasks } = input;
  const config = resolveScoringConfig(input.options);
  const warnings: ScoringResults['warnings'] = [];
  const started = performance.now();
  const log = input.options?.log;
  const step = (what: string) => log?.(`[${((performance.now() - started) / 1000).toFixed(1)}s] ${what}`);

  // Units and task lists per series.
  const nSeries = panel.seriesIds.length;
  const seriesUnit: string[] = new Array(nSeries);
  const seriesFrequency: string[] = new Array(nSeries);
  const tasksBySeries: TaskRow[][] = Array.from({ length: nSeries }, () => []);
  const unitInfo = new Map<
    string,
    { scope: string; category: string; frequency: string; series: number[] }
  >();
  let orphanTasks = 0;
  for (const t of tasks) {
    const s = panel.seriesIndex.get(t.series_id);
    if (s === undefined) {
      orphanTasks++;
      continue;
    }
    const unit = unitKeyOf(t);
    if (seriesUnit[s] === undefined) {
      seriesUnit[s] = unit;
      seriesFrequency[s] = t.frequency;
      let u = unitInfo.get(unit);
      if (!u) {
        u = { scope: t.scope, category: t.category, frequency: t.frequency, series: [] };
        unitInfo.set(unit, u);
      }
      u.series.push(s);
    }
    tasksBySeries[s].push(t);
  }
  if (orphanTasks) {
    warnings.push({
      code: 'TASKS_WITHOUT_ORIGINS',
      message: 'task rows for series with no origin in the split were not scored',
      count: orphanTasks,
    });
  }
  let untasked = 0;
  for (let s = 0; s < nSeries; s++) if (seriesUnit[s] === undefined) untasked++;
  if (untasked) {
    warnings.push({
      code: 'SERIES_WITHOUT_TASKS',
      message: 'series with origins but no task rows were not scored',
      count: untasked,
    });
  }

  const spacing = new Map<string, number>();
  const spacingOf = (unit: string): number => {
    let v = spacing.get(unit);
    if (v === undefined) {
      const info = unitInfo.get(unit)!;
      v = config.origin_stride ?? unitSpacing(panel, info.series, info.frequency);
      spacing.set(unit, v);
    }
    return v;
  };

  // Models: the random walk is always scored, then the other baselines, then the submissions.
  const baselineKinds = config.baselines as BaselineModel[];
  const own = makePanelBaselines(panel, seriesFrequency, baselineKinds);
  const models = [...own, ...checkSubmittedBaselines(panel, own, input.models, seriesFrequency, warnings)];
  const names = new Set<string>();
  for (const m of models) {
    if (names.has(m.model)) {
      throw new InputError(
        'FORECAST_DUPLICATE_MODEL',
        `model ${m.model} is submitted twice (two files or a baseline name); give each model one name`,
        { context: { value: m.model } },
      );
    }
    names.add(m.model);
  }

  const scored = models.filter((m) => !m.covered);
  const partial = models.filter((m) => m.covered);

  let undefinedSteps = 0;
  for (let s = 0; s < nSeries; s++) {
    if (seriesUnit[s] === undefined) continue;
    for (const t of tasksBySeries[s]) {
      if (t.metric === 'MASE_ori' || !POINTWISE_METRICS.has(t.metric)) continue;
      if (t.p_steps === null || t.h_steps === null) undefinedSteps++;
    }
  }
  if (undefinedSteps) {
    warnings.push({
      code: 'TASK_STEPS_UNDEFINED',
      message: 'task rows whose p or h is not defined at the series frequency (null steps) were skipped',
      count: undefinedSteps,
    });
  }
  let scaledChange = 0;
  const positive = positiveSeries(panel);
  for (let s = 0; s < nSeries; s++) if (seriesUnit[s] !== undefined && !positive[s]) scaledChange++;
  if (scaledChange) {
    warnings.push({
      code: 'TYCHEON_SCALED_CHANGE',
      message:
        'series with a value ≤ 0 have no log return: their Tycheon metrics use the scaled change (y − y_o)/|y_o|',
      count: scaledChange,
    });
  }

  // The baselines and the full-coverage models, on the whole task set.
  const overlap = checkOverlap(panel, seriesFrequency, config.origins_policy);
  const scope: ScoringScope = {
    panel,
    seriesUnit,
    tasksBySeries,
    unitInfo,
    spacingOf,
    config,
    overlap,
    step,
  };
  const main = scoreModels(scope, scored);
  step('Diebold–Mariano verdicts done');

  // Each partial model on its own origins, with the baselines restricted to the same points.
  const taskSet = coverageOf(panel, seriesUnit, unitInfo, null);
  const coverage = new Map<string, Coverage>();
  const values = [...main.values];
  const verdictRows = [...main.verdicts.rows];
  const samePoints: ScoringResults['same_points'] = [];
  const baselines = models.filter((m) => m.baseline);
  const baselineNames = new Set(baselines.map((m) => m.model));
  for (const m of partial) {
    const cov = coverageOf(panel, seriesUnit, unitInfo, m.covered!);
    coverage.set(m.model, cov);
    const selection = selectPanelOrigins(panel, m.covered!);
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
    samePoints.push({
      model: m.model,
      values: sub.values.filter((v) => v.model !== m.model),
      ranks: rankBlock(sub.values.filter((v) => v.family === 'finverse')),
      baselines_win: baselinesWin(sub.values, baselineNames),
    });
    step(`${m.model}: scored on its ${cov.origins} origin(s), the baselines on the same points`);
  }
  values.sort(
    (x, y) =>
      cmp(x.unit, y.unit) || cmp(x.family, y.family) || cmp(x.metric, y.metric) || cmp(x.model, y.model),
  );
  const verdicts: ScoringResults['verdicts'] = { ...main.verdicts, rows: verdictRows };

  // Rank blocks: a block ranks the models covering every point of its units (COMPARISON_RULES.ranks).
  const comparable = values.filter((v) => !v.partial);
  const finverse = comparable.filter((v) => v.family === 'finverse');
  const rankOf = (keep: (unit: string) => boolean) => {
    const cells = finverse.filter((v) => keep(v.unit));
    const units = [...new Set(cells.map((v) => v.unit))];
    const inBlock = new Map<string, boolean>();
    const ranked = (model: string) => {
      let ok = inBlock.get(model);
      if (ok === undefined) {
        const full = coverage.get(model)?.fullUnits;
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
  let totalPoints = 0;
  let maxH = 0;
  for (let o = 0; o < panel.horizon.length; o++) {
    totalPoints += panel.horizon[o];
    maxH = Math.max(maxH, panel.horizon[o]);
  }
  return {
    results_version: 1,
    dataset_id: input.datasetId ?? null,
    parent_dataset_id: input.parentDatasetId ?? null,
    scorer: { name: '@asof/scoring', version: SCORER_VERSION },
    config,
    config_sha256: sha256Hex(canonicalJson(config)),
    forecasts: input.forecasts ?? [],
    models: models.map((m) => ({
      model: m.model,
      baseline: m.baseline,
      crps_kind: crpsKindOf(m),
      coverage: coverageJson(coverage.get(m.model) ?? taskSet, taskSet),
    })),
    origins: {
      series: nSeries,
      origins: panel.horizon.length,
      points: totalPoints,
      max_horizon: maxH,
      overlapping: overlap.overlapping,
      overlap_reason: overlap.reason,
    },
    comparison: {
      task_set: { series: taskSet.series, origins: taskSet.origins, points: taskSet.points },
      ...COMPARISON_RULES,
    },
    values,
    verdicts,
    ranks: {
      overall: rankOf(() => true),
      by_scope: group('scope'),
      by_category: group('category'),
      by_frequency: group('frequency'),
    },
    same_points: samePoints,
    baselines_win: baselinesWin(comparable, baselineNames),
    warnings,
  };
}

/** How results.json states the comparison sets (also printed by the leaderboard). */
export const COMPARISON_RULES = {
  points:
    'each model is scored on exactly the (series, origin) paths it forecasts (whole paths 1…H); a partial model and the baselines are scored on the same points (same_points)',
  ranks:
    'a rank block (overall, each scope, category and frequency) ranks, on all of its (unit, metric) cells, the models that cover every origin of every scored series of its units; a model covering only part of a block is left out of it and ranked against the baselines on its own points (same_points)',
  verdicts:
    "Diebold–Mariano per model against the random walk on the origins the model covers (all origins for a full-coverage model; rows marked partial: the model's origins only)",
  baselines_win:
    "cells led by a baseline among the models covering the unit fully; same_points lists them on each partial model's points",
} as const;

interface Coverage {
  series: number;
  origins: number;
  points: number;
  units: Set<string>;
  /** Units whose every origin (of every scored series) is covered. */
  fullUnits: Set<string>;
}

/** What a model covers of the task set (the scored series' origins); covered null: all of it. */
function coverageOf(
  panel: EvaluationPanel,
  seriesUnit: readonly (string | undefined)[],
  unitInfo: Map<string, UnitInfo>,
  covered: Uint8Array | null,
): Coverage {
  const out: Coverage = { series: 0, origins: 0, points: 0, units: new Set(), fullUnits: new Set() };
  const partlyMissed = new Set<string>();
  for (let s = 0; s < panel.seriesIds.length; s++) {
    const unit = seriesUnit[s];
    if (unit === undefined) continue;
    let n = 0;
    for (let o = panel.seriesOriginStart[s]; o < panel.seriesOriginStart[s + 1]; o++) {
      if (covered && !covered[o]) continue;
      n++;
      out.points += panel.horizon[o];
    }
    if (n > 0) {
      out.series++;
      out.origins += n;
      out.units.add(unit);
    }
    if (n < panel.seriesOriginStart[s + 1] - panel.seriesOriginStart[s]) partlyMissed.add(unit);
  }
  for (const unit of unitInfo.keys())
    if (out.units.has(unit) && !partlyMissed.has(unit)) out.fullUnits.add(unit);
  return out;
}

function coverageJson(c: Coverage, taskSet: Coverage): ScoringResults['models'][number]['coverage'] {
  return {
    series: c.series,
    origins: c.origins,
    points: c.points,
    share: taskSet.points ? c.points / taskSet.points : 0,
    units: c.units.size,
    full_units: c.fullUnits.size,
  };
}

/**
 * The scope of a run on a selection of origins: only series with a covered origin are scored, and each
 * unit's cross-sections hold only those series (the units' spacing stays the full panel's).
 */
function coveredScope(
  sub: EvaluationPanel,
  seriesUnit: readonly (string | undefined)[],
  unitInfo: Map<string, UnitInfo>,
): Pick<ScoringScope, 'panel' | 'seriesUnit' | 'unitInfo'> {
  const has = (s: number) => sub.seriesOriginStart[s + 1] > sub.seriesOriginStart[s];
  const subUnit = seriesUnit.map((u, s) => (has(s) ? u : undefined));
  const subInfo = new Map<string, UnitInfo>();
  for (const [unit, info] of unitInfo) {
    const series = info.series.filter(has);
    if (series.length) subInfo.set(unit, { ...info, series });
  }
  return { panel: sub, seriesUnit: subUnit, unitInfo: subInfo };
}

/** Steps per year by frequency (BD: FinVerse's 260 weekdays). */
const STEPS_PER_YEAR: Record<string, number> = { BD: 260, D: 365, W: 52, M: 12, Q: 4, A: 1 };

/**
 * Steps between consecutive origins of a unit: the smallest gap between consecutive origins of its first
 * series that has two (origin_index when the split gives it, else the calendar), else 1.
 */
function unitSpacing(panel: EvaluationPanel, series: readonly number[], frequency: string): number {
  for (const s of series) {
    const a = panel.seriesOriginStart[s];
    const b = panel.seriesOriginStart[s + 1];
    if (b - a < 2) continue;
    let best = Number.POSITIVE_INFINITY;
    for (let o = a + 1; o < b; o++) {
      const byIndex = panel.originIndex[o] - panel.originIndex[o - 1];
      const gap = Number.isFinite(byIndex)
        ? byIndex
        : stepsBetween(frequency, panel.originTime[o - 1], panel.originTime[o]);
      if (gap >= 1 && gap < best) best = gap;
    }
    if (Number.isFinite(best)) return best;
  }
  return 1;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function meanOf(x: Float64Array): number {
  if (x.length === 0) return Number.NaN;
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  return s / x.length;
}

/** Quantile-grid CRPS is a different metric name ('tycheon.crps*') so it never shares a ranking cell with exact CRPS. */
function crpsName(_m: ModelForecasts, l: TycheonLosses): string {
  return l.approximate ? 'tycheon.crps*' : 'tycheon.crps';
}

export interface OverlapCheck {
  overlapping: boolean;
  reason: string;
}

/**
 * Tycheon's DM needs non-overlapping origins (≥ H steps apart). Policy `all` with H > 1 overlaps by
 * construction; otherwise (or with no policy) the origins themselves are checked, per series, on the
 * series' frequency calendar.
 */
export function checkOverlap(
  panel: EvaluationPanel,
  seriesFrequency: readonly (string | undefined)[],
  policy: string | null,
): OverlapCheck {
  let maxH = 0;
  for (let o = 0; o < panel.horizon.length; o++) maxH = Math.max(maxH, panel.horizon[o]);
  if (policy === 'all' && maxH > 1) {
    return {
      overlapping: true,
      reason: `origins policy 'all' with horizons up to ${maxH} steps: consecutive origins share targets`,
    };
  }
  for (let s = 0; s < panel.seriesIds.length; s++) {
    const freq = seriesFrequency[s] ?? 'D';
    for (let o = panel.seriesOriginStart[s] + 1; o < panel.seriesOriginStart[s + 1]; o++) {
      const byIndex = panel.originIndex[o] - panel.originIndex[o - 1];
      const gap = Number.isFinite(byIndex)
        ? byIndex
        : stepsBetween(freq, panel.originTime[o - 1], panel.originTime[o]);
      if (gap < panel.horizon[o - 1]) {
        return {
          overlapping: true,
          reason: `${panel.seriesIds[s]}: origins ${panel.originIso[o - 1]} and ${panel.originIso[o]} are ${gap} ${freq} step(s) apart, less than the horizon ${panel.horizon[o - 1]}`,
        };
      }
    }
  }
  return {
    overlapping: false,
    reason:
      policy === null
        ? 'no origins policy in the manifest; checked: every origin is ≥ H steps after the previous one'
        : `origins policy '${policy}'; checked: every origin is ≥ H steps after the previous one`,
  };
}

function dmJson(r: DieboldMarianoResult) {
  const f = (x: number) => (Number.isFinite(x) ? x : null);
  return {
    statistic: f(r.statistic),
    p_model_better: f(r.pModelBetter),
    p_model_worse: f(r.pModelWorse),
    mean_differential: f(r.meanDifferential),
    n: r.n,
    horizon: r.horizon,
  };
}

function dmVerdicts(
  panel: EvaluationPanel,
  frame: ReturnType<typeof tycheonFrame>,
  models: readonly ModelForecasts[],
  losses: Map<string, TycheonLosses>,
  unitInfo: Map<string, { series: number[] }>,
  overlap: OverlapCheck,
  config: ScoringConfig,
  verdictsFor?: ReadonlySet<string>,
): ScoringResults['verdicts'] {
  if (overlap.overlapping && !config.allow_overlap) {
    return {
      status: 'refused',
      reason:
        `Diebold–Mariano verdicts refused: ${overlap.reason}. Overlapping forecast errors are autocorrelated and the ` +
        'pooled test would be over-confident. Split with non-overlapping origins (≥ H steps apart), or pass ' +
        '--allow-overlap to run DM with H − 1 autocovariances (HLN) at your own risk.',
      rows: [],
    };
  }
  const rw = losses.get(RANDOM_WALK)!;
  const groups: [string, Int32Array][] = [];
  const all: number[] = [];
  for (const unit of [...unitInfo.keys()].sort()) {
    const idx: number[] = [];
    for (const s of unitInfo.get(unit)!.series)
      for (let i = frame.seriesStart[s]; i < frame.seriesStart[s + 1]; i++) idx.push(i);
    groups.push([unit, Int32Array.from(idx)]);
    // A loop, not push(...idx): spreading 100k+ arguments overflows the call stack.
    for (const i of idx) all.push(i);
  }
  groups.push(['*', Int32Array.from(all)]);
  const rwCrpsByKind = new Map<string, Float64Array>();
  const rows: VerdictRow[] = [];
  for (const m of models) {
    if (m.model === RANDOM_WALK || (verdictsFor && !verdictsFor.has(m.model))) continue;
    const l = losses.get(m.model)!;
    const kindKey = `${l.kind}|${m.quantileLevels?.join(',') ?? ''}`;
    let rwCrps = rwCrpsByKind.get(kindKey);
    if (!rwCrps) {
      rwCrps = randomWalkCrps(frame, l.kind, m.quantileLevels);
      rwCrpsByKind.set(kindKey, rwCrps);
    }
    for (const [unit, idx] of groups) {
      const n = idx.length;
      let h = 1;
      if (overlap.overlapping) for (const i of idx) h = Math.max(h, panel.horizon[frame.origins[i]]);
      const pick = (x: Float64Array) => {
        const out = new Float64Array(n);
        for (let k = 0; k < n; k++) out[k] = x[idx[k]];
        return out;
      };
      const row: VerdictRow = {
        model: m.model,
        unit,
        n,
        squared_error: null,
        crps: null,
        crps_kind: l.kind,
        crps_approximate: l.approximate,
        verdict: null,
      };
      try {
        const se = dieboldMariano(pick(l.squaredError), pick(rw.squaredError), { horizon: h });
        const cr = dieboldMariano(pick(l.crps), pick(rwCrps), { horizon: h });
        row.squared_error = dmJson(se);
        row.crps = dmJson(cr);
        row.verdict = verdictVsRandomWalk(se, cr, config.alpha);
        if (Number.isNaN(se.statistic) || Number.isNaN(cr.statistic))
          row.note = 'a loss differential has zero variance (identical losses): no test, indistinguishable';
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
        row.note = err.message;
      }
      rows.push(row);
    }
  }
  return { status: 'ok', rows };
}

function rankBlock(values: readonly MetricValue[]): RankBlock {
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

/** Headline cells: every FinVerse metric, and Tycheon MAE/RMSE/MASE/CRPS. */
function isHeadline(v: MetricValue): boolean {
  return (
    v.family === 'finverse' ||
    ['tycheon.mae', 'tycheon.rmse', 'tycheon.mase', 'tycheon.crps', 'tycheon.crps*'].includes(v.metric)
  );
}

/** (unit, metric) cells where a baseline has the best value (ties count): computed, never edited. */
function baselinesWin(
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
    const leaders = vs.filter((v) => sign * (v.value as number) === best).map((v) => v.model);
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

/** What one scoring run needs besides its models: the panel, its scored series and units, the settings. */
interface ScoringScope {
  panel: EvaluationPanel;
  /** Unit key of each series scored in this run (undefined: not scored). */
  seriesUnit: (string | undefined)[];
  tasksBySeries: TaskRow[][];
  unitInfo: Map<string, UnitInfo>;
  /** Steps between origins per unit, measured on the full panel. */
  spacingOf: (unit: string) => number;
  config: ScoringConfig;
  /** Overlap of the split's origins (the full panel's). */
  overlap: OverlapCheck;
  /** Models whose verdict rows are wanted (default: every model but the random walk). */
  verdictsFor?: ReadonlySet<string>;
  step: (what: string) => void;
}

interface UnitInfo {
  scope: string;
  category: string;
  frequency: string;
  series: number[];
}

/**
 * Every metric and the DM verdicts of `models` on one panel: the whole task set for the baselines and the
 * full-coverage models, or a partial model's own origins (selectPanelOrigins) for it and the baselines.
 */
function scoreModels(
  scope: ScoringScope,
  models: readonly ModelForecasts[],
): { values: MetricValue[]; verdicts: ScoringResults['verdicts'] } {
  const { panel, seriesUnit, tasksBySeries, unitInfo, spacingOf, config, overlap, step } = scope;
  const nSeries = panel.seriesIds.length;
  // Accumulators per (unit, metric) cell, one per model (by index): the hot loops look a cell up once
  // per task, not once per model.
  const modelIndex = new Map(models.map((m, i) => [m.model, i]));
  const cells = new Map<string, Acc[]>();
  const cell = (
    unit: string,
    family: Acc['family'],
    aspect: string,
    metric: string,
    direction: Acc['direction'],
  ): Acc[] => {
    const key = `${unit}\u0000${metric}`;
    let c = cells.get(key);
    if (!c) {
      c = models.map((m) => ({
        model: m.model,
        unit,
        family,
        aspect,
        metric,
        direction,
        sum: 0,
        n: 0,
        touched: false,
      }));
      cells.set(key, c);
    }
    return c;
  };
  const put = (a: Acc, value: number) => {
    a.touched = true;
    if (Number.isFinite(value)) {
      a.sum += value;
      a.n++;
    }
  };
  const add = (
    model: string,
    unit: string,
    family: Acc['family'],
    aspect: string,
    metric: string,
    direction: Acc['direction'],
    value: number,
  ) => put(cell(unit, family, aspect, metric, direction)[modelIndex.get(model)!], value);

  step('baselines ready');
  // FinVerse point-wise: per series.
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
        const c = cell(unit, 'finverse', t.aspect, 'MASE_ori', direction);
        for (let mi = 0; mi < models.length; mi++) put(c[mi], maseOriMetric(panel, models[mi], oriFrame));
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
      const c = cell(unit, 'finverse', t.aspect, `${t.metric}(${t.p},${t.h})`, direction);
      for (let mi = 0; mi < models.length; mi++)
        put(c[mi], pointwiseMetric(panel, models[mi], t.metric, frame, t.h_steps, scratch));
    }
  }

  step('FinVerse point-wise done');
  // FinVerse cross-sectional (IC) and portfolio metrics: per unit.
  const unitTasks = new Map<string, Map<string, TaskRow>>();
  for (let s = 0; s < nSeries; s++) {
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
          add(
            m.model,
            unit,
            'finverse',
            t.aspect,
            name,
            'higher',
            unitInformationCoefficient(panel, m, frame, hSteps),
          );
          continue;
        }
        const pk = `${m.model}|${fk}|${t.h}`;
        let pf = portfolios.get(pk);
        if (!pf) {
          const holding = Math.max(1, Math.ceil(hSteps / spacingOf(unit)));
          pf = unitPortfolio(panel, m, frame, hSteps, holding, PERIODS_PER_YEAR[t.h ?? ''] ?? 1);
          portfolios.set(pk, pf);
        }
        add(
          m.model,
          unit,
          'finverse',
          t.aspect,
          name,
          FINVERSE_DIRECTIONS[t.metric],
          pf[t.metric as keyof typeof pf],
        );
      }
    }
  }

  step('FinVerse cross-sectional and portfolio done');
  // Tycheon: horizon-end log returns (scaled change for series that reach ≤ 0); FinTSB: simple returns.
  const frame = tycheonFrame(panel);
  const losses = new Map<string, TycheonLosses>();
  for (const m of models) losses.set(m.model, tycheonLosses(panel, m, frame));
  for (let s = 0; s < nSeries; s++) {
    const unit = seriesUnit[s];
    if (unit === undefined) continue;
    const a = frame.seriesStart[s];
    const b = frame.seriesStart[s + 1];
    if (a === b) continue;
    const r = frame.realized.subarray(a, b);
    for (const m of models) {
      const l = losses.get(m.model)!;
      const f = l.forecast.subarray(a, b);
      add(m.model, unit, 'tycheon', 'tycheon', 'tycheon.mae', 'lower', mae(f, r));
      add(m.model, unit, 'tycheon', 'tycheon', 'tycheon.rmse', 'lower', rmse(f, r));
      add(m.model, unit, 'tycheon', 'tycheon', 'tycheon.mase', 'lower', maseVsRandomWalk(f, r));
      add(
        m.model,
        unit,
        'tycheon',
        'tycheon',
        'tycheon.directional_accuracy',
        'higher',
        directionalAccuracy(f, r),
      );
      add(m.model, unit, 'tycheon', 'tycheon', crpsName(m, l), 'lower', meanOf(l.crps.subarray(a, b)));
      const fc = l.change.subarray(a, b);
      const rc = frame.change.subarray(a, b);
      add(m.model, unit, 'fintsb', 'fintsb', 'fintsb.mse', 'lower', mse(fc, rc));
      add(m.model, unit, 'fintsb', 'fintsb', 'fintsb.mae', 'lower', mae(fc, rc));
    }
  }
  for (const m of models) {
    for (const nominal of config.intervals) {
      const bounds = intervalBounds(panel, m, frame, nominal);
      if (!bounds) continue;
      const pct = Math.round(nominal * 100);
      for (let s = 0; s < nSeries; s++) {
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
        add(m.model, unit, 'tycheon', 'tycheon', `tycheon.coverage_${pct}`, 'nominal', c.coverage);
        add(
          m.model,
          unit,
          'tycheon',
          'tycheon',
          `tycheon.coverage_abs_error_${pct}`,
          'lower',
          Math.abs(c.coverageError),
        );
        add(m.model, unit, 'tycheon', 'tycheon', `tycheon.width_${pct}`, 'lower', c.meanWidth);
      }
    }
  }
  step('Tycheon point and interval metrics done');
  // QLIKE: forecast variance vs realised variance, for models with a distribution (the random walk's σ²).
  for (const m of models) {
    const fv =
      m.model === RANDOM_WALK
        ? { variance: frame.rwSigma.map((x) => x * x), approximate: false }
        : forecastVariance(panel, m, frame);
    if (!fv) continue;
    const name = fv.approximate ? 'tycheon.qlike*' : 'tycheon.qlike';
    for (let s = 0; s < nSeries; s++) {
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
      if (h.length) add(m.model, unit, 'tycheon', 'tycheon', name, 'lower', qlike(h, rv));
    }
  }

  step('QLIKE done');
  // FinTSB signal metrics: per unit, cross-sections of horizon-end returns by origin instant.
  for (const [unit, info] of unitInfo) {
    const slots = new Map<number, number>();
    const rows: { t: number; j: number; i: number }[] = [];
    info.series.forEach((s, j) => {
      for (let i = frame.seriesStart[s]; i < frame.seriesStart[s + 1]; i++) {
        const t = panel.originTime[frame.origins[i]];
        if (!slots.has(t)) slots.set(t, slots.size);
        rows.push({ t: slots.get(t)!, j, i });
      }
    });
    if (slots.size === 0 || info.series.length < 2) continue;
    const realized = Array.from({ length: slots.size }, () =>
      new Float64Array(info.series.length).fill(Number.NaN),
    );
    for (const { t, j, i } of rows) realized[t][j] = frame.change[i];
    // TopK / TopK-Drop (FinTSB §5.2, fee 0.1%): hold the top 10% (m ≥ 1), replace at most ⌈m/6⌉ a
    // rebalance (FinTSB's 5 of 30); one rebalance per origin, annualised by the origin spacing.
    const k = Math.max(1, Math.ceil(0.1 * info.series.length));
    const dropN = Math.max(1, Math.ceil(k / 6));
    const periodsPerYear = (STEPS_PER_YEAR[info.frequency] ?? 1) / spacingOf(unit);
    const benchmark = realized.map((row) => {
      let sum = 0;
      let n = 0;
      for (const v of row) {
        if (!Number.isFinite(v)) continue;
        sum += v;
        n++;
      }
      return n ? sum / n : 0;
    });
    for (const m of models) {
      const l = losses.get(m.model)!;
      const predicted = Array.from({ length: slots.size }, () =>
        new Float64Array(info.series.length).fill(Number.NaN),
      );
      for (const { t, j, i } of rows) predicted[t][j] = l.change[i];
      const sm = fintsbSignalMetrics(predicted, realized);
      add(m.model, unit, 'fintsb', 'fintsb', 'fintsb.ic', 'higher', sm.ic);
      add(m.model, unit, 'fintsb', 'fintsb', 'fintsb.icir', 'higher', sm.icir);
      add(m.model, unit, 'fintsb', 'fintsb', 'fintsb.rank_ic', 'higher', sm.rankIc);
      add(m.model, unit, 'fintsb', 'fintsb', 'fintsb.rank_icir', 'higher', sm.rankIcir);
      const topk = topkBacktest(predicted, realized, { k, fee: 0.001, periodsPerYear, benchmark });
      const drop = topkDropBacktest(predicted, realized, {
        k,
        drop: dropN,
        fee: 0.001,
        periodsPerYear,
        benchmark,
      });
      for (const [prefix, r] of [
        ['fintsb.topk', topk],
        ['fintsb.topk_drop', drop],
      ] as const) {
        add(m.model, unit, 'fintsb', 'fintsb', `${prefix}_arr`, 'higher', r.arr);
        add(m.model, unit, 'fintsb', 'fintsb', `${prefix}_avol`, 'lower', r.avol);
        add(m.model, unit, 'fintsb', 'fintsb', `${prefix}_mdd`, 'higher', r.mdd);
        add(m.model, unit, 'fintsb', 'fintsb', `${prefix}_asr`, 'higher', r.asr);
        add(m.model, unit, 'fintsb', 'fintsb', `${prefix}_ir`, 'higher', r.ir);
      }
    }
  }

  step('FinTSB signal metrics and backtests done');
  // Diebold–Mariano verdicts vs the random walk.
  const verdicts = dmVerdicts(panel, frame, models, losses, unitInfo, overlap, config, scope.verdictsFor);

  const values: MetricValue[] = [...cells.values()]
    .flat()
    .filter((a) => a.touched)
    .map((a) => ({
      model: a.model,
      unit: a.unit,
      family: a.family,
      aspect: a.aspect,
      metric: a.metric,
      direction: a.direction,
      value: a.n ? a.sum / a.n : null,
      series: a.n,
    }))
    .sort(
      (x, y) =>
        cmp(x.unit, y.unit) || cmp(x.family, y.family) || cmp(x.metric, y.metric) || cmp(x.model, y.model),
    );

  return { values, verdicts };
}
