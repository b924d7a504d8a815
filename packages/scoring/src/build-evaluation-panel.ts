import { InputError } from '@asof/schema';
import { parseInstant } from './parse-instant.ts';
import type { OriginRow, ScoringWindow, TargetRow } from './score-types.ts';

/**
 * The split's origins and targets as flat arrays (the scorer's hot paths index these, never row objects).
 * Origins are sorted by series, then time; series s owns origins seriesOriginStart[s] … [s+1] − 1.
 * Origin o's step k (1-based) is actual[targetOffset[o] + k − 1]; a target the split did not provide is NaN
 * and the origin is left out of every metric that needs it.
 */
export interface EvaluationPanel {
  seriesIds: string[];
  seriesIndex: Map<string, number>;
  seriesOriginStart: Int32Array;
  originSeries: Int32Array;
  originIso: string[];
  originTime: Float64Array;
  /** Each origin's period label (OriginRow origin_label); absent, or undefined entries, when the split has none. */
  originLabel?: (string | undefined)[];
  /** Each origin's knowledge window (OriginRow window); absent when no origin has one. */
  originWindow?: (ScoringWindow | undefined)[];
  /** origin_index on the series' step grid, NaN when the split did not give it. */
  originIndex: Float64Array;
  horizon: Int32Array;
  lastValue: Float64Array;
  historyTail: (Float64Array | null)[];
  /** Grid steps before the origin's step of each historyTail value (OriginRow history_tail_back); null: consecutive up to the origin. */
  historyTailBack: (Float64Array | null)[];
  /**
   * y_1 of the whole history served as of each origin and its grid steps back from the origin's step
   * (OriginRow history_first, history_first_back); NaN when not given.
   */
  historyFirst: Float64Array;
  historyFirstBack: Float64Array;
  /**
   * The served history before the tail that the random walk's volatility window reaches, oldest first, and
   * each value's grid steps back from the origin's step (OriginRow history_before/_back); null: none given.
   */
  historyBefore: (Float64Array | null)[];
  historyBeforeBack: (Float64Array | null)[];
  targetOffset: Float64Array;
  actual: Float64Array;
  /** `${seriesIndex}|${epochMs}` → origin index. */
  originKey: Map<string, number>;
}

/** Targets in columns (as a Parquet reader returns them). */
export interface TargetColumns {
  series_id: ArrayLike<string>;
  origin: ArrayLike<string>;
  step: ArrayLike<number>;
  value: ArrayLike<number>;
}

export function originKeyOf(seriesIdx: number, timeMs: number): string {
  return `${seriesIdx}|${timeMs}`;
}

/** Builds the panel, rejecting duplicate origins and targets that name no origin or an impossible step. */
export function buildEvaluationPanel(
  origins: readonly OriginRow[],
  targets: readonly TargetRow[] | TargetColumns,
  where = 'split',
): EvaluationPanel {
  const parsed = origins.map((o, i) => {
    if (!Number.isInteger(o.horizon) || o.horizon < 1) {
      throw new InputError(
        'SCORE_BAD_HORIZON',
        `${where} origins row ${i + 1}: horizon ${o.horizon} for ${o.series_id} @ ${o.origin}; expected an integer ≥ 1`,
        { context: { where, row: i + 1, value: o.horizon } },
      );
    }
    if (!Number.isFinite(o.last_value)) {
      throw new InputError(
        'SCORE_NON_FINITE',
        `${where} origins row ${i + 1}: last_value ${o.last_value} for ${o.series_id} @ ${o.origin}; expected a finite number`,
        { context: { where, row: i + 1, value: o.last_value } },
      );
    }
    return { row: o, time: parseInstant(o.origin, `${where} origins row ${i + 1}`) };
  });
  const seriesIds = [...new Set(origins.map((o) => o.series_id))].sort();
  const seriesIndex = new Map(seriesIds.map((s, i) => [s, i]));
  parsed.sort(
    (a, b) => seriesIndex.get(a.row.series_id)! - seriesIndex.get(b.row.series_id)! || a.time - b.time,
  );
  const n = parsed.length;
  const originSeries = new Int32Array(n);
  const originTime = new Float64Array(n);
  const horizon = new Int32Array(n);
  const originIndex = new Float64Array(n).fill(Number.NaN);
  const lastValue = new Float64Array(n);
  const targetOffset = new Float64Array(n + 1);
  const historyTail: (Float64Array | null)[] = new Array(n);
  const historyTailBack: (Float64Array | null)[] = new Array(n);
  const historyFirst = new Float64Array(n).fill(Number.NaN);
  const historyFirstBack = new Float64Array(n).fill(Number.NaN);
  const historyBefore: (Float64Array | null)[] = new Array(n).fill(null);
  const historyBeforeBack: (Float64Array | null)[] = new Array(n).fill(null);
  const originIso: string[] = new Array(n);
  const originLabel: (string | undefined)[] = new Array(n);
  const originWindow: (ScoringWindow | undefined)[] = new Array(n);
  let labelled = false;
  let windowed = false;
  const originKey = new Map<string, number>();
  const seriesOriginStart = new Int32Array(seriesIds.length + 1);
  for (let o = 0; o < n; o++) {
    const { row, time } = parsed[o];
    const s = seriesIndex.get(row.series_id)!;
    const key = originKeyOf(s, time);
    if (originKey.has(key)) {
      throw new InputError(
        'SCORE_DUPLICATE_ORIGIN',
        `${where}: origin ${row.origin} of ${row.series_id} appears twice; each (series_id, origin) once`,
        { context: { where, series_id: row.series_id, value: row.origin } },
      );
    }
    originKey.set(key, o);
    originSeries[o] = s;
    originTime[o] = time;
    originIso[o] = row.origin;
    originLabel[o] = row.origin_label;
    if (row.origin_label !== undefined) labelled = true;
    originWindow[o] = row.window;
    if (row.window !== undefined) windowed = true;
    horizon[o] = row.horizon;
    if (row.origin_index !== undefined) originIndex[o] = row.origin_index;
    lastValue[o] = row.last_value;
    historyTail[o] = row.history_tail ? Float64Array.from(row.history_tail) : null;
    historyTailBack[o] = row.history_tail_back ? Float64Array.from(row.history_tail_back) : null;
    if (row.history_first !== undefined && row.history_first_back !== undefined) {
      historyFirst[o] = row.history_first;
      historyFirstBack[o] = row.history_first_back;
    }
    if (row.history_before && row.history_before_back) {
      historyBefore[o] = Float64Array.from(row.history_before);
      historyBeforeBack[o] = Float64Array.from(row.history_before_back);
    }
    targetOffset[o + 1] = targetOffset[o] + row.horizon;
    seriesOriginStart[s + 1] = o + 1;
  }
  for (let s = 1; s <= seriesIds.length; s++)
    seriesOriginStart[s] = Math.max(seriesOriginStart[s], seriesOriginStart[s - 1]);
  const actual = new Float64Array(targetOffset[n]).fill(Number.NaN);
  const panel: EvaluationPanel = {
    seriesIds,
    seriesIndex,
    seriesOriginStart,
    originSeries,
    originIso,
    originTime,
    ...(labelled ? { originLabel } : {}),
    ...(windowed ? { originWindow } : {}),
    originIndex,
    horizon,
    lastValue,
    historyTail,
    historyTailBack,
    historyFirst,
    historyFirstBack,
    historyBefore,
    historyBeforeBack,
    targetOffset,
    actual,
    originKey,
  };
  const cols: TargetColumns = Array.isArray(targets)
    ? {
        series_id: (targets as TargetRow[]).map((t) => t.series_id),
        origin: (targets as TargetRow[]).map((t) => t.origin),
        step: (targets as TargetRow[]).map((t) => t.step),
        value: (targets as TargetRow[]).map((t) => t.value),
      }
    : (targets as TargetColumns);
  fillTargets(panel, cols, where);
  return panel;
}

/** Origins already in columns, sorted by series then time (a columnar reader's or a benchmark's path). */
export interface OriginColumns {
  seriesIds: string[];
  originSeries: Int32Array;
  originIso: string[];
  originLabel?: (string | undefined)[];
  originWindow?: (ScoringWindow | undefined)[];
  horizon: Int32Array;
  lastValue: Float64Array;
  historyTail?: (Float64Array | null)[];
  historyTailBack?: (Float64Array | null)[];
  historyFirst?: Float64Array;
  historyFirstBack?: Float64Array;
  historyBefore?: (Float64Array | null)[];
  historyBeforeBack?: (Float64Array | null)[];
  originIndex?: Float64Array;
  /** Targets laid out origin-major (length Σ horizon); NaN where unknown. Default: all NaN. */
  actual?: Float64Array;
}

/**
 * Builds a panel from origin columns without row objects. Throws unless origins are sorted by series
 * index, then strictly by time.
 */
export function panelFromColumns(c: OriginColumns, where = 'split'): EvaluationPanel {
  const n = c.originSeries.length;
  const nSeries = c.seriesIds.length;
  const seriesIndex = new Map(c.seriesIds.map((s, i) => [s, i]));
  const originTime = new Float64Array(n);
  const targetOffset = new Float64Array(n + 1);
  const seriesOriginStart = new Int32Array(nSeries + 1);
  const originKey = new Map<string, number>();
  let prevTime = Number.NEGATIVE_INFINITY;
  let isoCache = '';
  let timeCache = Number.NaN;
  for (let o = 0; o < n; o++) {
    const s = c.originSeries[o];
    if (c.originIso[o] !== isoCache) {
      isoCache = c.originIso[o];
      timeCache = parseInstant(isoCache, `${where} origin ${o + 1}`);
    }
    const t = timeCache;
    if (o > 0 && (s < c.originSeries[o - 1] || (s === c.originSeries[o - 1] && t <= prevTime))) {
      throw new InputError(
        'SCORE_ORIGINS_UNSORTED',
        `${where}: origin ${o + 1} (${c.seriesIds[s]} @ ${c.originIso[o]}) is out of order; sort origins by series, then time, without duplicates`,
        { context: { where, row: o + 1, value: c.originIso[o] } },
      );
    }
    prevTime = t;
    originTime[o] = t;
    targetOffset[o + 1] = targetOffset[o] + c.horizon[o];
    seriesOriginStart[s + 1] = o + 1;
    originKey.set(originKeyOf(s, t), o);
  }
  for (let s = 1; s <= nSeries; s++)
    seriesOriginStart[s] = Math.max(seriesOriginStart[s], seriesOriginStart[s - 1]);
  const actual = c.actual ?? new Float64Array(targetOffset[n]).fill(Number.NaN);
  if (actual.length !== targetOffset[n]) {
    throw new InputError(
      'SCORE_BAD_TARGETS',
      `${where}: ${actual.length} target slots for Σ horizon = ${targetOffset[n]}; lay targets out origin-major`,
      { context: { where, value: actual.length, expected: targetOffset[n] } },
    );
  }
  return {
    seriesIds: c.seriesIds,
    seriesIndex,
    seriesOriginStart,
    originSeries: c.originSeries,
    originIso: c.originIso,
    originTime,
    ...(c.originLabel ? { originLabel: c.originLabel } : {}),
    ...(c.originWindow ? { originWindow: c.originWindow } : {}),
    originIndex: c.originIndex ?? new Float64Array(n).fill(Number.NaN),
    horizon: c.horizon,
    lastValue: c.lastValue,
    historyTail: c.historyTail ?? new Array(n).fill(null),
    historyTailBack: c.historyTailBack ?? new Array(n).fill(null),
    historyFirst: c.historyFirst ?? new Float64Array(n).fill(Number.NaN),
    historyFirstBack: c.historyFirstBack ?? new Float64Array(n).fill(Number.NaN),
    historyBefore: c.historyBefore ?? new Array(n).fill(null),
    historyBeforeBack: c.historyBeforeBack ?? new Array(n).fill(null),
    targetOffset,
    actual,
    originKey,
  };
}

function fillTargets(panel: EvaluationPanel, t: TargetColumns, where: string): void {
  const seen = new Uint8Array(panel.actual.length);
  for (let i = 0; i < t.series_id.length; i++) {
    const at = `${where} targets row ${i + 1}`;
    const s = panel.seriesIndex.get(t.series_id[i]);
    const o =
      s === undefined ? undefined : panel.originKey.get(originKeyOf(s, parseInstant(t.origin[i], at)));
    if (o === undefined) {
      throw new InputError(
        'SCORE_TARGET_WITHOUT_ORIGIN',
        `${at}: target for ${t.series_id[i]} @ ${t.origin[i]} has no origin row; the split's origins and targets disagree`,
        { context: { where, row: i + 1, value: `${t.series_id[i]} @ ${t.origin[i]}` } },
      );
    }
    const step = t.step[i];
    if (!Number.isInteger(step) || step < 1 || step > panel.horizon[o]) {
      throw new InputError(
        'SCORE_BAD_STEP',
        `${at}: step ${step} for ${t.series_id[i]} @ ${t.origin[i]}; expected 1…${panel.horizon[o]}`,
        { context: { where, row: i + 1, value: step } },
      );
    }
    const value = t.value[i];
    if (!Number.isFinite(value)) {
      throw new InputError('SCORE_NON_FINITE', `${at}: target value ${value}; expected a finite number`, {
        context: { where, row: i + 1, value },
      });
    }
    const idx = panel.targetOffset[o] + step - 1;
    if (seen[idx]) {
      throw new InputError(
        'SCORE_DUPLICATE_TARGET',
        `${at}: second target for ${t.series_id[i]} @ ${t.origin[i]} step ${step}; one value per step`,
        { context: { where, row: i + 1, value: step } },
      );
    }
    seen[idx] = 1;
    panel.actual[idx] = value;
  }
}
