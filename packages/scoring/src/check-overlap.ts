import type { EvaluationPanel } from './build-evaluation-panel.ts';
import { stepsBetween } from './steps-between.ts';

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

/**
 * Steps between consecutive origins of a unit: the smallest gap between consecutive origins of its first
 * series that has two (origin_index when the split gives it, else the calendar), else 1.
 */
export function unitSpacing(panel: EvaluationPanel, series: readonly number[], frequency: string): number {
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
