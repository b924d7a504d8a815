import type { ModelForecasts } from './align-forecasts.ts';
import { type EvaluationPanel, originKeyOf } from './build-evaluation-panel.ts';
import { inheritPositiveSeries } from './positive-series.ts';

/** A panel cut to some origins of another, with the full panel's index of each kept origin. */
export interface PanelSelection {
  panel: EvaluationPanel;
  /** full-panel origin of each origin of `panel` */
  origins: Int32Array;
}

/**
 * The panel restricted to the origins with `keep[o] = 1`, with the same series (same indices, so task and
 * unit lookups carry over; a series without a kept origin simply has none) and each kept origin's whole
 * path. The series keep their full-panel Tycheon space (inheritPositiveSeries). A partial model is scored
 * on this panel, with the baselines restricted to it (selectModelOrigins): the same points for all.
 */
export function selectPanelOrigins(full: EvaluationPanel, keep: Uint8Array): PanelSelection {
  const picked: number[] = [];
  for (let o = 0; o < full.horizon.length; o++) if (keep[o]) picked.push(o);
  const n = picked.length;
  const nSeries = full.seriesIds.length;
  const originSeries = new Int32Array(n);
  const originTime = new Float64Array(n);
  const originIndex = new Float64Array(n);
  const horizon = new Int32Array(n);
  const lastValue = new Float64Array(n);
  const historyFirst = new Float64Array(n);
  const historyFirstBack = new Float64Array(n);
  const targetOffset = new Float64Array(n + 1);
  const seriesOriginStart = new Int32Array(nSeries + 1);
  const originIso: string[] = new Array(n);
  const originLabel: (string | undefined)[] | undefined = full.originLabel ? new Array(n) : undefined;
  const originWindow = full.originWindow ? new Array<(typeof full.originWindow)[number]>(n) : undefined;
  const historyTail: (Float64Array | null)[] = new Array(n);
  const historyTailBack: (Float64Array | null)[] = new Array(n);
  const historyBefore: (Float64Array | null)[] = new Array(n);
  const historyBeforeBack: (Float64Array | null)[] = new Array(n);
  const originKey = new Map<string, number>();
  for (let j = 0; j < n; j++) {
    const o = picked[j];
    const s = full.originSeries[o];
    originSeries[j] = s;
    originTime[j] = full.originTime[o];
    originIndex[j] = full.originIndex[o];
    horizon[j] = full.horizon[o];
    lastValue[j] = full.lastValue[o];
    historyFirst[j] = full.historyFirst[o];
    historyFirstBack[j] = full.historyFirstBack[o];
    historyBefore[j] = full.historyBefore[o];
    historyBeforeBack[j] = full.historyBeforeBack[o];
    originIso[j] = full.originIso[o];
    if (originLabel) originLabel[j] = full.originLabel?.[o];
    if (originWindow) originWindow[j] = full.originWindow?.[o];
    historyTail[j] = full.historyTail[o];
    historyTailBack[j] = full.historyTailBack[o];
    targetOffset[j + 1] = targetOffset[j] + full.horizon[o];
    seriesOriginStart[s + 1] = j + 1;
    originKey.set(originKeyOf(s, full.originTime[o]), j);
  }
  for (let s = 1; s <= nSeries; s++)
    seriesOriginStart[s] = Math.max(seriesOriginStart[s], seriesOriginStart[s - 1]);
  const actual = new Float64Array(targetOffset[n]);
  for (let j = 0; j < n; j++) {
    const from = full.targetOffset[picked[j]];
    actual.set(full.actual.subarray(from, from + horizon[j]), targetOffset[j]);
  }
  const panel: EvaluationPanel = {
    seriesIds: full.seriesIds,
    seriesIndex: full.seriesIndex,
    seriesOriginStart,
    originSeries,
    originIso,
    originTime,
    ...(originLabel ? { originLabel } : {}),
    ...(originWindow ? { originWindow } : {}),
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
  inheritPositiveSeries(panel, full);
  return { panel, origins: Int32Array.from(picked) };
}

/** A model's forecasts on a selection's origins (point, quantiles, samples of each kept path). */
export function selectModelOrigins(
  full: EvaluationPanel,
  selection: PanelSelection,
  model: ModelForecasts,
): ModelForecasts {
  const sub = selection.panel;
  const size = sub.actual.length;
  const K = model.quantileLevels?.length ?? 0;
  const M = model.sampleCount;
  const point = new Float64Array(size);
  const quantiles = model.quantiles ? new Float64Array(size * K) : null;
  const samples = model.samples ? new Float64Array(size * M) : null;
  for (let j = 0; j < selection.origins.length; j++) {
    const from = full.targetOffset[selection.origins[j]];
    const to = sub.targetOffset[j];
    const h = sub.horizon[j];
    point.set(model.point.subarray(from, from + h), to);
    if (quantiles) quantiles.set(model.quantiles!.subarray(from * K, (from + h) * K), to * K);
    if (samples) samples.set(model.samples!.subarray(from * M, (from + h) * M), to * M);
  }
  return { ...model, point, quantiles, samples, covered: null };
}
