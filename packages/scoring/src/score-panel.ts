import { readFileSync } from 'node:fs';
import {
  DEFAULT_REFIT_EVERY,
  GARCH_MIN_RETURNS,
  isFittedBaseline,
  quantileColumnName,
} from '@asof/baselines';
import { canonicalJson, sha256Hex } from '@asof/manifest';
import { AsofError, InputError } from '@asof/schema';
import type { ModelForecasts } from './align-forecasts.ts';
import { decodeBaselines, encodeBaselines, type ScoreStore } from './baseline-cache.ts';
import type { EvaluationPanel } from './build-evaluation-panel.ts';
import { checkOverlap, unitSpacing } from './check-overlap.ts';
import { POINTWISE_METRICS } from './finverse-scores.ts';
import { lossTable } from './loss-table.ts';
import {
  type FittedBaselineNotes,
  makePanelBaselines,
  SCORED_WHERE_FITTED,
} from './make-baseline-forecasts.ts';
import type { ScoringScope, UnitInfo } from './metric-cells.ts';
import { DEFAULT_TRADING_COSTS, type TradingCosts } from './metrics/cost-diagnostic.ts';
import { positiveSeries } from './positive-series.ts';
import type { ScoringConfig, ScoringResults, WindowScores } from './results-schema.ts';
import { scoreSelection } from './score-selection.ts';
import {
  BASELINE_MODELS,
  type BaselineModel,
  RANDOM_WALK,
  SCORING_WINDOWS,
  type ScoringWindow,
  type TaskRow,
} from './score-types.ts';
import { memorisationGap, onlyWindow, windowScope, windowsPresent } from './score-windows.ts';

export { checkOverlap, type OverlapCheck } from './check-overlap.ts';

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
  /** Baselines to score besides the random walk (default: drift, seasonal_naive, arima, garch). */
  baselines?: readonly BaselineModel[];
  /** The fitted baselines (ARIMA, GARCH) re-estimate their parameters every K origins of a series (default 10). */
  refitEvery?: number;
  /** Costs of the cost-aware diagnostic, fractions per unit traded (default DEFAULT_TRADING_COSTS: 5, 5, 1 bp). */
  costs?: Partial<TradingCosts>;
  /**
   * FinTSB conventions: 'paper' (default, the paper's text) or 'code' (its published code's, for comparing
   * with the paper's tables; fintsb.code.* cells).
   */
  fintsbCompat?: 'paper' | 'code';
  /** Central interval levels for coverage/width (default 0.5, 0.8, 0.9). */
  intervals?: readonly number[];
  /**
   * Score one knowledge window only (asof score --window): its origins, with the baselines made on every
   * origin. Default: all origins, and each window present in a section of its own.
   */
  window?: ScoringWindow;
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
  /** The split's (and so its universe's) manifest warnings, carried into the results as they are. */
  datasetWarnings?: ScoringResults['dataset_warnings'];
  /** Where the scorer's own baselines are kept between runs, and their key (baselineCacheKey). */
  baselineCache?: { store: ScoreStore; key: string };
  /**
   * Submitted baseline models not passed in `models` because an earlier score of the same split found their
   * file equal to the scorer's own baselines (score-split): counted as checked, as if read again.
   */
  acceptedBaselines?: number;
  /** The split manifest's path, for messages. */
  where?: string;
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
  const refitEvery = options.refitEvery ?? DEFAULT_REFIT_EVERY;
  const costs = { ...DEFAULT_TRADING_COSTS, ...options.costs };
  for (const [name, v] of Object.entries(costs)) {
    if (!(Number.isFinite(v) && v >= 0)) {
      throw new InputError('USAGE', `cost ${name} ${v}: expected a number ≥ 0 (a fraction per unit traded)`, {
        context: { field: name, value: v },
      });
    }
  }
  if (!(Number.isInteger(refitEvery) && refitEvery >= 1)) {
    throw new InputError(
      'USAGE',
      `refit every ${refitEvery} origins: expected a whole number ≥ 1 (default 10)`,
      {
        context: { value: refitEvery },
      },
    );
  }
  return {
    alpha: options.alpha ?? 0.05,
    allow_overlap: options.allowOverlap ?? false,
    origins_policy: options.originsPolicy ?? null,
    origin_stride: options.originStride ?? null,
    baselines: [RANDOM_WALK, ...extra.filter((b) => b !== RANDOM_WALK)],
    refit_every: refitEvery,
    cost_diagnostic: {
      label: 'diagnostic, not a trading system',
      half_spread: costs.halfSpread,
      slippage: costs.slippage,
      fee: costs.fee,
    },
    fintsb_compat: options.fintsbCompat ?? 'paper',
    tycheon_space: 'horizon_end_log_return',
    intervals: [...(options.intervals ?? [0.5, 0.8, 0.9])],
    // Only when given: a score of all origins keeps the config (and config_sha256) it always had.
    ...(options.window ? { window: checkedWindow(options.window) } : {}),
  };
}

function checkedWindow(window: string): ScoringWindow {
  if ((SCORING_WINDOWS as readonly string[]).includes(window)) return window as ScoringWindow;
  throw new InputError('USAGE', `--window ${window}: expected one of ${SCORING_WINDOWS.join(', ')}`, {
    context: { field: 'window', value: window },
  });
}

/** Each panel series' frequency: its first task row's (what the season length and the refits go by). */
export function seriesFrequencyOf(panel: EvaluationPanel, tasks: readonly TaskRow[]): (string | undefined)[] {
  const out = new Array<string | undefined>(panel.seriesIds.length).fill(undefined);
  for (const t of tasks) {
    const s = panel.seriesIndex.get(t.series_id);
    if (s !== undefined && out[s] === undefined) out[s] = t.frequency;
  }
  return out;
}

/** a equals b up to 1e-9 relative (absolute below 1). */
function sameValue(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
}

/**
 * The first point of a submitted baseline that differs from the scorer's own (value, or a quantile of a
 * fitted baseline), as the FORECAST_BASELINE_MISMATCH message and context; null when every point agrees.
 */
function baselineMismatch(
  panel: EvaluationPanel,
  m: ModelForecasts,
  ref: ModelForecasts,
  seriesFrequency: ArrayLike<string | undefined>,
): { where: string; what: string; value: number; expected: number; series_id: string } | null {
  const K = ref.quantileLevels?.length ?? 0;
  const levels = m.quantileLevels ?? [];
  if (K && (levels.length !== K || levels.some((l, j) => !sameValue(l, ref.quantileLevels![j])))) {
    return {
      where: 'its quantile columns',
      what: `${levels.length ? levels.map(quantileColumnName).join(', ') : 'none'} instead of ${ref.quantileLevels!.map(quantileColumnName).join(', ')}`,
      value: levels.length,
      expected: K,
      series_id: '',
    };
  }
  for (let o = 0; o < panel.horizon.length; o++) {
    // Series without tasks are not scored, and their frequency (the season length) is unknown here.
    if (seriesFrequency[panel.originSeries[o]] === undefined) continue;
    if (m.covered && !m.covered[o]) continue;
    const series_id = panel.seriesIds[panel.originSeries[o]];
    for (let k = 0; k < panel.horizon[o]; k++) {
      const i = panel.targetOffset[o] + k;
      const where = `${series_id} @ ${panel.originIso[o]} step ${k + 1}`;
      if (!sameValue(m.point[i], ref.point[i]))
        return { where, what: 'value', value: m.point[i], expected: ref.point[i], series_id };
      for (let j = 0; j < K; j++) {
        const a = m.quantiles![i * K + j];
        const b = ref.quantiles![i * K + j];
        if (!sameValue(a, b))
          return {
            where,
            what: quantileColumnName(ref.quantileLevels![j]),
            value: a,
            expected: b,
            series_id,
          };
      }
    }
  }
  return null;
}

/**
 * Submitted models named like a baseline (a file written by `asof baselines`) must equal the scorer's own
 * baseline on every point they give of every scored (tasked) series (relative 1e-9; the fitted baselines'
 * quantiles too): they are then dropped (the scorer's copy is scored once) and counted in a warning; any
 * difference refuses the file, naming the first differing point.
 */
function checkSubmittedBaselines(
  panel: EvaluationPanel,
  own: readonly ModelForecasts[],
  submitted: readonly ModelForecasts[],
  seriesFrequency: ArrayLike<string | undefined>,
  config: ScoringConfig,
  warnings: ScoringResults['warnings'],
  accepted: number,
): ModelForecasts[] {
  const kept: ModelForecasts[] = [];
  // Baselines in files an earlier score of the same split found equal (not read again: score-split).
  let checked = accepted;
  for (const m of submitted) {
    if (!(BASELINE_MODELS as readonly string[]).includes(m.model)) {
      kept.push(m);
      continue;
    }
    const kind = m.model as BaselineModel;
    const mine = own.find((b) => b.model === kind);
    const ref =
      mine ?? makePanelBaselines(panel, seriesFrequency, [kind], { refitEvery: config.refit_every })[0];
    const bad = baselineMismatch(panel, m, ref, seriesFrequency);
    if (bad) {
      const refit = isFittedBaseline(kind)
        ? ` (its parameters are re-estimated every ${config.refit_every} origins: give asof baselines and asof score the same --refit-every)`
        : '';
      throw new InputError(
        'FORECAST_BASELINE_MISMATCH',
        `model '${kind}' at ${bad.where}: submitted ${bad.what === 'value' ? bad.value : `${bad.what} ${bad.value}`}, the scorer's own ${kind} baseline gives ${bad.expected}${refit}; the names ${BASELINE_MODELS.join(', ')} are reserved for those baselines (write them with 'asof baselines') — rename your model`,
        { context: { value: bad.value, expected: bad.expected, series_id: bad.series_id, field: bad.what } },
      );
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

/** The scored series of a panel: each one's unit, frequency and task rows, and the units' series. */
interface TaskIndex {
  seriesUnit: string[];
  seriesFrequency: string[];
  tasksBySeries: TaskRow[][];
  unitInfo: Map<string, UnitInfo>;
}

/** Tasks by series and unit; series without tasks (and tasks without origins) are counted in warnings. */
function indexTasks(
  panel: EvaluationPanel,
  tasks: readonly TaskRow[],
  warnings: ScoringResults['warnings'],
): TaskIndex {
  const nSeries = panel.seriesIds.length;
  const seriesUnit: string[] = new Array(nSeries);
  const seriesFrequency: string[] = new Array(nSeries);
  const tasksBySeries: TaskRow[][] = Array.from({ length: nSeries }, () => []);
  const unitInfo = new Map<string, UnitInfo>();
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
  return { seriesUnit, seriesFrequency, tasksBySeries, unitInfo };
}

/** Warnings about what the metrics cannot use: task rows without steps, series in scaled change. */
function warnAboutScoredSeries(
  panel: EvaluationPanel,
  index: TaskIndex,
  warnings: ScoringResults['warnings'],
): void {
  let undefinedSteps = 0;
  let scaledChange = 0;
  const positive = positiveSeries(panel);
  for (let s = 0; s < panel.seriesIds.length; s++) {
    if (index.seriesUnit[s] === undefined) continue;
    for (const t of index.tasksBySeries[s]) {
      if (t.metric === 'MASE_ori' || !POINTWISE_METRICS.has(t.metric)) continue;
      if (t.p_steps === null || t.h_steps === null) undefinedSteps++;
    }
    if (!positive[s]) scaledChange++;
  }
  if (undefinedSteps) {
    warnings.push({
      code: 'TASK_STEPS_UNDEFINED',
      message: 'task rows whose p or h is not defined at the series frequency (null steps) were skipped',
      count: undefinedSteps,
    });
  }
  if (scaledChange) {
    warnings.push({
      code: 'TYCHEON_SCALED_CHANGE',
      message:
        'series with a value ≤ 0 have no log return: their Tycheon metrics use the scaled change (y − y_o)/|y_o|',
      count: scaledChange,
    });
  }
}

/**
 * The scorer's own baselines: reused from the store when it holds them under the key (verified there by
 * their sha256), else made (the fitted ones take most of a score's time) and stored for the next score of
 * the same split with the same settings (docs/decisions/0054).
 */
function ownBaselines(
  panel: EvaluationPanel,
  index: TaskIndex,
  config: ScoringConfig,
  cache: ScorePanelInput['baselineCache'],
  step: (what: string) => void,
): { own: ModelForecasts[]; notes: Map<string, FittedBaselineNotes> } {
  const kinds = config.baselines as BaselineModel[];
  const points = panel.actual.length;
  const stored = cache?.store.get(cache.key);
  const reused = stored ? decodeBaselines(stored, points, kinds, panel.horizon.length) : null;
  if (reused) {
    step(`baselines reused (${cache!.key.slice(0, 12)})`);
    return { own: reused.models, notes: reused.notes };
  }
  const notes = new Map<string, FittedBaselineNotes>();
  const own = makePanelBaselines(
    panel,
    index.seriesFrequency,
    kinds,
    { refitEvery: config.refit_every },
    notes,
  );
  step('baselines made');
  if (cache) cache.store.put(cache.key, encodeBaselines(own, notes, points));
  return { own, notes };
}

/** The baselines (random walk first) and the submitted models, each name once. */
function modelsToScore(
  panel: EvaluationPanel,
  index: TaskIndex,
  config: ScoringConfig,
  input: ScorePanelInput,
  warnings: ScoringResults['warnings'],
  step: (what: string) => void,
): { models: ModelForecasts[]; fits: ScoringResults['baseline_fits'] } {
  const { own, notes } = ownBaselines(panel, index, config, input.baselineCache, step);
  for (const [kind, n] of notes) {
    if (n.fallback) {
      const why = Object.entries(n.reasons ?? {})
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([r, c]) => `${r} ${c}`)
        .join(', ');
      warnings.push({
        code: `${kind.toUpperCase()}_FIT_FALLBACK`,
        message:
          kind === 'arima'
            ? `origins where no ARIMA could be fitted: ARIMA(0,1,0), the random walk with σ̂² from the window, was used${why ? ` (${why})` : ''}`
            : `origins where GARCH(1,1) was not fitted (${why || `fewer than ${GARCH_MIN_RETURNS} returns in the window, or the fit failed`}): a constant variance, not GARCH, so GARCH is not scored there (baseline_fits)`,
        count: n.fallback,
      });
    }
    if (n.noPath) {
      warnings.push({
        code: `${kind.toUpperCase()}_NO_PATH`,
        message: SCORED_WHERE_FITTED.has(kind)
          ? `origins whose window holds fewer than two values: no ${kind} there, and ${kind} is not scored there`
          : `origins whose window holds fewer than two values: ${kind} is the random walk there, a point mass at y_o`,
        count: n.noPath,
      });
    }
  }
  // A baseline scored only where it was fitted, fitted at no scored origin, has nothing to be scored on: it
  // is left out of the results (baseline_fits says why), as a window leaves out a model with no origin in it.
  const scoredOrigin = (o: number) => index.seriesUnit[panel.originSeries[o]] !== undefined;
  const scorable = own.filter((m) => !m.covered || m.covered.some((c, o) => c === 1 && scoredOrigin(o)));
  const models = [
    ...scorable,
    ...checkSubmittedBaselines(
      panel,
      own,
      input.models,
      index.seriesFrequency,
      config,
      warnings,
      input.acceptedBaselines ?? 0,
    ),
  ];
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
  return { models, fits: baselineFits(notes) };
}

/** results.json baseline_fits: per fitted baseline, where it was fitted, fell back (and why) or had no path. */
function baselineFits(notes: ReadonlyMap<string, FittedBaselineNotes>): ScoringResults['baseline_fits'] {
  return [...notes].map(([model, n]) => {
    const reasons = Object.fromEntries(
      Object.entries(n.reasons ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
    const origins = n.origins ?? 0;
    return {
      model,
      origins,
      fitted: origins - n.fallback - n.noPath,
      fallback: n.fallback,
      reasons,
      no_path: n.noPath,
      not_converged: n.notConverged ?? 0,
      scored_on: SCORED_WHERE_FITTED.has(model) ? ('fitted' as const) : ('all' as const),
    };
  });
}

/**
 * Scores every model (the submitted ones plus the baselines) on a panel: FinVerse metrics where the
 * tasks assign them, FinTSB and Tycheon metrics, Diebold–Mariano verdicts against the random walk, and
 * FinVerse §4.2 rank aggregation with scope/category/frequency breakdowns (scoreSelection). A partial model
 * (`covered`; GARCH too, scored only where it was fitted) is scored on its own origins with the baselines on
 * the same points (same_points, docs/decisions/0014), and a rank block ranks every model with a path in each
 * of its units on the paths they all forecast (COMPARISON_RULES, docs/decisions/0059). When the split
 * labels its origins with knowledge windows, each window present is scored the same way on its own origins
 * (windows), with the T1 − T2 memorisation gap; `options.window` scores one window only. The per-origin
 * losses behind every verdict are kept (losses).
 */
export function scorePanel(input: ScorePanelInput): ScoringResults {
  try {
    return scoreChecked(input);
  } catch (err) {
    throw overflowError(err, input.where);
  }
}

/**
 * A metric that met a non-finite value. Forecasts are bounded where they are read (±1e15, and 1e100 times
 * their series' smallest value: docs/decisions/0058), so what overflowed is a return of the split's own
 * values (a series with values near 0 beside large ones); the metric's own message names an internal
 * argument, not what to look at.
 */
function overflowError(err: unknown, where: string | undefined): unknown {
  if (!(err instanceof InputError) || err.code !== 'METRIC_NON_FINITE') return err;
  const { metric, value } = err.context as { metric?: string; value?: number };
  return new AsofError(
    'SCORE_OVERFLOW',
    `${where ?? 'the split'}: scoring overflowed a double (${metric ?? 'a metric'} met ${value}): every forecast was within its bounds, so a series of the split has values too close to 0 beside large ones for its returns to be computed; leave such series out of the split (asof split --series)`,
    { cause: err, context: { ...err.context, file: where } },
  );
}

function scoreChecked(input: ScorePanelInput): ScoringResults {
  const { panel, tasks } = input;
  const config = resolveScoringConfig(input.options);
  const warnings: ScoringResults['warnings'] = [];
  const log = input.options?.log;
  // The caller's log stamps each line from the command's start (asof score, asof run).
  const step = (what: string) => log?.(what);

  const index = indexTasks(panel, tasks, warnings);
  const { seriesUnit, unitInfo } = index;
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
  const { models, fits } = modelsToScore(panel, index, config, input, warnings, step);
  warnAboutScoredSeries(panel, index, warnings);

  // The split's overlap and each unit's spacing are the full panel's, in every window too.
  const overlap = checkOverlap(panel, index.seriesFrequency, config.origins_policy);
  const full: ScoringScope = {
    panel,
    seriesUnit,
    tasksBySeries: index.tasksBySeries,
    unitInfo,
    spacingOf,
    config,
    overlap,
    step,
  };
  const scored = config.window
    ? onlyWindow(full, models, config.window, input.where ?? 'split')
    : { scope: full, models };
  const top = scoreSelection(scored.scope, scored.models);
  const windows: WindowScores[] = [];
  if (!config.window) {
    for (const w of windowsPresent(panel, seriesUnit)) {
      const sub = windowScope(full, models, w);
      windows.push({ window: w, ...scoreSelection(sub.scope, sub.models) });
    }
  }
  const losses = lossTable(scored.scope, scored.models);
  step('per-origin losses kept');
  const baselineNames = new Set(models.filter((m) => m.baseline).map((m) => m.model));
  return {
    results_version: 1,
    dataset_id: input.datasetId ?? null,
    parent_dataset_id: input.parentDatasetId ?? null,
    scorer: { name: '@asof/scoring', version: SCORER_VERSION },
    config,
    config_sha256: sha256Hex(canonicalJson(config)),
    forecasts: input.forecasts ?? [],
    models: top.models,
    origins: {
      ...top.origins,
      // All origins: every series of the panel, as always (a window's panel keeps series without origins).
      ...(config.window ? {} : { series: panel.seriesIds.length }),
      overlapping: overlap.overlapping,
      overlap_reason: overlap.reason,
    },
    comparison: { task_set: top.task_set, ...COMPARISON_RULES },
    values: top.values,
    pooled: top.pooled,
    verdicts: top.verdicts,
    ranks: top.ranks,
    same_points: top.same_points,
    baselines_win: top.baselines_win,
    baseline_fits: fits,
    windows,
    memorisation_gap: memorisationGap(losses, baselineNames),
    losses,
    dataset_warnings: [...(input.datasetWarnings ?? [])],
    warnings,
  };
}

/** How results.json states the comparison sets (also printed by the leaderboard). */
export const COMPARISON_RULES = {
  points:
    'each model is scored on exactly the (series, origin) paths it forecasts (whole paths 1…H); a partial model and the baselines are scored on the same points (same_points)',
  ranks:
    "a rank block (overall, each scope, category and frequency) ranks by the FinVerse family's rank aggregation (docs/glossary.md) every model that forecasts at least one (series, origin) path in each of its units, on the shared points: every ranked model's (unit, metric) cells are computed on the paths all ranked models forecast (ranks.*.points; all of the block's points when every ranked model covers them); a model with no path in one of the block's units is not ranked there (ranks.*.not_ranked); each partial model is also ranked with the baselines on its own points (same_points)",
  verdicts:
    "Diebold–Mariano per model against the random walk on the origins the model covers (all origins for a full-coverage model; rows marked partial: the model's origins only)",
  baselines_win:
    "cells led by a baseline among the models covering the unit fully; same_points lists them on each partial model's points",
  fitted_baselines:
    'GARCH is scored only on the origins where GARCH(1,1) was fitted (a partial model there); its fallback origins, a constant variance, are counted in baseline_fits',
} as const;
