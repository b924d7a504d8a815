import type { EvaluationPanel } from './build-evaluation-panel.ts';

/**
 * How many times a forecast may exceed the smallest non-zero magnitude of its series (docs/decisions/0058).
 * Every metric divides a forecast by a value of its own series (y_o for the Tycheon return or scaled change,
 * y_{o+h−p} for FinVerse's relative change; a difference of two such values for MASE is at least an ulp of
 * them), then squares and sums the result over the origins: (1e100)² × 2³¹ origins stays far below the
 * largest double (1.8e308), so no metric overflows. Forecasts are bounded by ±1e15 where they are read, so
 * this only refuses a series with values below 1e-85, never one asof ingests from a real source.
 */
export const MAX_FORECAST_RATIO = 1e100;

const cache = new WeakMap<EvaluationPanel, Float64Array>();

/**
 * Per panel series, the smallest non-zero finite |value| the scorer divides by (every origin's y_o, its
 * history, y_1 and every known target); Infinity for a series with none.
 */
export function smallestMagnitude(panel: EvaluationPanel): Float64Array {
  let out = cache.get(panel);
  if (out) return out;
  out = new Float64Array(panel.seriesIds.length).fill(Number.POSITIVE_INFINITY);
  const take = (s: number, v: number) => {
    const a = Math.abs(v);
    if (a > 0 && a < out![s]) out![s] = a;
  };
  for (let s = 0; s < out.length; s++) {
    for (let o = panel.seriesOriginStart[s]; o < panel.seriesOriginStart[s + 1]; o++) {
      take(s, panel.lastValue[o]);
      take(s, panel.historyFirst[o]);
      for (const values of [panel.historyTail[o], panel.historyBefore[o]])
        if (values) for (let k = 0; k < values.length; k++) take(s, values[k]);
      const end = panel.targetOffset[o] + panel.horizon[o];
      for (let k = panel.targetOffset[o]; k < end; k++) take(s, panel.actual[k]);
    }
  }
  cache.set(panel, out);
  return out;
}
