import type { EvaluationPanel } from './build-evaluation-panel.ts';

const cache = new WeakMap<EvaluationPanel, Uint8Array>();

/**
 * 1 for each panel series whose every value the scorer sees is > 0 (every origin's y_o, history tail, the
 * served history before it that the random walk's volatility window reads, y_1, and every known target),
 * else 0. Those series (prices, indices, volumes, most macro levels) are scored in Tycheon's log-return
 * space; a forecast value ≤ 0 for them is refused (it has no log return). Series that reach zero or below
 * (spreads, rates, changes) have no log return and are scored in scaled change (y − y_o)/|y_o| instead.
 */
export function positiveSeries(panel: EvaluationPanel): Uint8Array {
  let out = cache.get(panel);
  if (out) return out;
  out = new Uint8Array(panel.seriesIds.length);
  for (let s = 0; s < out.length; s++) {
    let ok = true;
    for (let o = panel.seriesOriginStart[s]; ok && o < panel.seriesOriginStart[s + 1]; o++) {
      // NaN > 0 is false: an unknown y_1 must not fail the test, an unknown target is skipped below.
      ok = panel.lastValue[o] > 0 && !(panel.historyFirst[o] <= 0);
      const tail = panel.historyTail[o];
      if (tail) for (let k = 0; ok && k < tail.length; k++) ok = tail[k] > 0;
      const before = panel.historyBefore[o];
      if (before) for (let k = 0; ok && k < before.length; k++) ok = before[k] > 0;
      const end = panel.targetOffset[o] + panel.horizon[o];
      for (let k = panel.targetOffset[o]; ok && k < end; k++) ok = !(panel.actual[k] <= 0);
    }
    out[s] = ok ? 1 : 0;
  }
  cache.set(panel, out);
  return out;
}

/**
 * Gives a panel cut from `full` (same series, a subset of its origins: selectPanelOrigins) the series'
 * classification on the full panel, so a partial model and the baselines are scored in the same Tycheon
 * space (log return or scaled change) as every other model on those series.
 */
export function inheritPositiveSeries(sub: EvaluationPanel, full: EvaluationPanel): void {
  cache.set(sub, positiveSeries(full));
}
