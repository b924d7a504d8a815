import type { EvaluationPanel } from './build-evaluation-panel.ts';

/**
 * y_{o+k} for origin o as the scorer may know it: k > 0 a realised target, k = 0 the origin value y_o,
 * k < 0 the history tail (ending with y_o). NaN when that value is not in the split.
 */
export function valueAt(panel: EvaluationPanel, o: number, k: number): number {
  if (k > 0) return k <= panel.horizon[o] ? panel.actual[panel.targetOffset[o] + k - 1] : Number.NaN;
  if (k === 0) return panel.lastValue[o];
  const tail = panel.historyTail[o];
  if (tail === null) return Number.NaN;
  const i = tail.length - 1 + k;
  return i >= 0 ? tail[i] : Number.NaN;
}
