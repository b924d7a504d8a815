import type { ModelForecasts } from './align-forecasts.ts';
import type { MetricCells, ScoringScope } from './metric-cells.ts';
import {
  fintsbCodeStatistics,
  icirDdof0,
  topkCode,
  topkDropCode,
} from './metrics/fintsb-code-conventions.ts';
import { fintsbSignalMetrics } from './metrics/fintsb-signal-metrics.ts';
import { mae } from './metrics/mae.ts';
import { mse } from './metrics/mse.ts';
import { topkBacktest } from './metrics/topk-backtest.ts';
import { topkDropBacktest } from './metrics/topk-drop-backtest.ts';
import { scoredRanges, type TycheonFrame, type TycheonLosses } from './tycheon-scores.ts';

/** Steps per year by frequency (BD: FinVerse's 260 weekdays). */
const STEPS_PER_YEAR: Record<string, number> = { BD: 260, D: 365, W: 52, M: 12, Q: 4, A: 1 };

/**
 * The FinTSB cells of a run, all on horizon-end simple returns (y_{o+H} − y_o)/|y_o| (portfolio returns
 * average and compound simple returns): MSE and MAE per series; per unit, over the cross-sections at each
 * origin instant, IC, ICIR, RankIC, RankICIR and the TopK / TopK-Drop backtests, by the paper's text, or
 * with `fintsb_compat: 'code'` ICIR, RankICIR and the backtests by FinTSB's published code (fintsb.code.*).
 */
export function scoreFintsbPanel(
  scope: ScoringScope,
  models: readonly ModelForecasts[],
  cells: MetricCells,
  frame: TycheonFrame,
  losses: Map<string, TycheonLosses>,
): void {
  scoreErrors(scope, models, cells, frame, losses);
  scoreSignals(scope, models, cells, frame, losses);
  scope.step('FinTSB signal metrics and backtests done');
}

function scoreErrors(
  scope: ScoringScope,
  models: readonly ModelForecasts[],
  cells: MetricCells,
  frame: TycheonFrame,
  losses: Map<string, TycheonLosses>,
): void {
  for (const { unit, a, b } of scoredRanges(scope.seriesUnit, frame)) {
    const rc = frame.change.subarray(a, b);
    for (const m of models) {
      const fc = losses.get(m.model)!.change.subarray(a, b);
      cells.add(m.model, unit, 'fintsb', 'fintsb', 'fintsb.mse', 'lower', mse(fc, rc));
      cells.add(m.model, unit, 'fintsb', 'fintsb', 'fintsb.mae', 'lower', mae(fc, rc));
    }
  }
}

/** FinTSB signal metrics and backtests: per unit, cross-sections of horizon-end returns by origin instant. */
function scoreSignals(
  scope: ScoringScope,
  models: readonly ModelForecasts[],
  cells: MetricCells,
  frame: TycheonFrame,
  losses: Map<string, TycheonLosses>,
): void {
  const { panel, unitInfo, spacingOf } = scope;
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
    // rebalance (FinTSB's 5 of 30); one rebalance per origin, annualised by the origin spacing. The 10% is
    // of the pool present at an origin (its members then, on average over origins), not of every series the
    // unit ever held: a point-in-time universe lists each company that was ever a member.
    const k = topkSize(realized);
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
      const add = (metric: string, direction: 'lower' | 'higher', value: number) =>
        cells.add(m.model, unit, 'fintsb', 'fintsb', metric, direction, value);
      const sm = fintsbSignalMetrics(predicted, realized);
      add('fintsb.ic', 'higher', sm.ic);
      add('fintsb.rank_ic', 'higher', sm.rankIc);
      if (scope.config.fintsb_compat === 'code') {
        addCodeConventions(add, predicted, realized, sm.icSeries, sm.rankIcSeries, sm.ic, {
          k,
          drop: dropN,
          periodsPerYear,
        });
        continue;
      }
      add('fintsb.icir', 'higher', sm.icir);
      add('fintsb.rank_icir', 'higher', sm.rankIcir);
      const topk = topkBacktest(predicted, realized, { k, fee: FEE, periodsPerYear, benchmark });
      const drop = topkDropBacktest(predicted, realized, {
        k,
        drop: dropN,
        fee: FEE,
        periodsPerYear,
        benchmark,
      });
      for (const [prefix, r] of [
        ['fintsb.topk', topk],
        ['fintsb.topk_drop', drop],
      ] as const) {
        add(`${prefix}_arr`, 'higher', r.arr);
        add(`${prefix}_avol`, 'lower', r.avol);
        add(`${prefix}_mdd`, 'higher', r.mdd);
        add(`${prefix}_asr`, 'higher', r.asr);
        add(`${prefix}_ir`, 'higher', r.ir);
      }
    }
  }
}

/**
 * FinTSB's m: 10% (at least 1) of the mean count of assets with a realised return per origin, the pool a
 * cross-section holds. Rows are origins, columns every asset the unit ever held (NaN where absent).
 */
export function topkSize(realized: readonly ArrayLike<number>[]): number {
  let present = 0;
  for (const row of realized) for (let j = 0; j < row.length; j++) if (Number.isFinite(row[j])) present++;
  return Math.max(1, Math.ceil((0.1 * present) / Math.max(1, realized.length)));
}

/** FinTSB §5.2's fee, 0.1% (the commission rate c of the code conventions too). */
const FEE = 0.001;

/**
 * `fintsb_compat: 'code'`: ICIR, RankICIR and both backtests by FinTSB's published code conventions
 * (fintsb-code-conventions.ts), under the names fintsb.code.* so they never share a cell with the paper's.
 */
function addCodeConventions(
  add: (metric: string, direction: 'lower' | 'higher', value: number) => void,
  predicted: Float64Array[],
  realized: Float64Array[],
  icSeries: Float64Array,
  rankIcSeries: Float64Array,
  ic: number,
  options: { k: number; drop: number; periodsPerYear: number },
): void {
  add('fintsb.code.icir', 'higher', icirDdof0(icSeries.filter(Number.isFinite)));
  add('fintsb.code.rank_icir', 'higher', icirDdof0(rankIcSeries.filter(Number.isFinite)));
  const { k, drop, periodsPerYear } = options;
  for (const [prefix, daily] of [
    ['fintsb.code.topk', topkCode(predicted, realized, { k, fee: FEE })],
    ['fintsb.code.topk_drop', topkDropCode(predicted, realized, { k, drop, fee: FEE })],
  ] as const) {
    const r = fintsbCodeStatistics(daily, { periodsPerYear, ic });
    add(`${prefix}_arr`, 'higher', r.arr);
    add(`${prefix}_avol`, 'lower', r.avol);
    add(`${prefix}_mdd`, 'higher', r.mdd);
    add(`${prefix}_asr`, 'higher', r.asr);
    add(`${prefix}_ir`, 'higher', r.ir);
  }
}
