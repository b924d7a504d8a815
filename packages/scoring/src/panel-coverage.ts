import type { EvaluationPanel } from './build-evaluation-panel.ts';
import type { ScoringScope, UnitInfo } from './metric-cells.ts';
import type { ScoringResults } from './results-schema.ts';

/** What a model covers of the task set. */
export interface PanelCoverage {
  series: number;
  origins: number;
  points: number;
  units: Set<string>;
  /** Units whose every origin (of every scored series) is covered. */
  fullUnits: Set<string>;
}

/** What a model covers of the task set (the scored series' origins); covered null: all of it. */
export function coverageOf(
  panel: EvaluationPanel,
  seriesUnit: readonly (string | undefined)[],
  unitInfo: Map<string, UnitInfo>,
  covered: Uint8Array | null,
): PanelCoverage {
  const out: PanelCoverage = { series: 0, origins: 0, points: 0, units: new Set(), fullUnits: new Set() };
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

export function coverageJson(
  c: PanelCoverage,
  taskSet: PanelCoverage,
): ScoringResults['models'][number]['coverage'] {
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
export function coveredScope(
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
