import type { ModelForecasts } from './align-forecasts.ts';
import type { ScoringScope } from './metric-cells.ts';
import type { LossTable } from './results-schema.ts';
import { selectModelOrigins, selectPanelOrigins } from './select-panel-origins.ts';
import {
  crpsKindOf,
  randomWalkCrps,
  type TycheonLosses,
  tycheonFrame,
  tycheonLosses,
} from './tycheon-scores.ts';

/** How a reader recomputes every verdict from the table (results.json losses.rule). */
export const LOSS_TABLE_RULE =
  "Each Diebold–Mariano (HLN) verdict compares a model's squared_error with the random_walk model's squared_error, " +
  "and its crps with its random_walk_crps, on the rows where the model's loss is not null, restricted to the verdict's " +
  "unit (unit '*': every row) and, in a window section, to the rows of that window; rows stay in this order " +
  '(unit, then series, then origin: the order of the pooled test). The horizon argument is 1, or the largest horizon of those rows when the origins overlap ' +
  '(origins.overlapping, with --allow-overlap). Losses are in Tycheon space at the horizon end (config.tycheon_space).';

const num = (x: number) => (Number.isFinite(x) ? x : null);

/**
 * The per-origin losses behind every DM test of a run (the scope's panel: all origins, or one window's): one
 * row per origin of a scored series with a known horizon-end value (the Tycheon frame's rows), ordered as the
 * pooled test stacks them, each model's
 * squared error and CRPS and the random walk's CRPS of the same kind. A partial model's losses are computed on
 * its own origins' panel, as its verdicts are (the values are per origin, so they are the same numbers), and
 * null elsewhere.
 */
export function lossTable(scope: ScoringScope, models: readonly ModelForecasts[]): LossTable {
  const { panel, unitInfo } = scope;
  const frame = tycheonFrame(panel);
  // In the order dmVerdicts pools them: units sorted, each unit's series, each series' origins in time.
  const rows: number[] = [];
  const units: string[] = [];
  for (const unit of [...unitInfo.keys()].sort()) {
    for (const s of unitInfo.get(unit)!.series) {
      for (let i = frame.seriesStart[s]; i < frame.seriesStart[s + 1]; i++) {
        rows.push(i);
        units.push(unit);
      }
    }
  }
  const origins = rows.map((i) => frame.origins[i]);
  const rowOfOrigin = new Map<number, number>(origins.map((o, k) => [o, k]));
  const rwByKind = new Map<string, Float64Array>();
  const table: LossTable['models'] = [];
  for (const m of models) {
    const kind = crpsKindOf(m);
    const squared = new Array<number | null>(rows.length).fill(null);
    const crps = new Array<number | null>(rows.length).fill(null);
    const place = (l: TycheonLosses, originOf: (i: number) => number, count: number) => {
      for (let i = 0; i < count; i++) {
        const k = rowOfOrigin.get(originOf(i));
        if (k === undefined) continue;
        squared[k] = num(l.squaredError[i]);
        crps[k] = num(l.crps[i]);
      }
    };
    if (m.covered) {
      const selection = selectPanelOrigins(panel, m.covered);
      const subFrame = tycheonFrame(selection.panel);
      const l = tycheonLosses(selection.panel, selectModelOrigins(panel, selection, m), subFrame);
      place(l, (i) => selection.origins[subFrame.origins[i]], subFrame.origins.length);
    } else {
      const l = tycheonLosses(panel, m, frame);
      place(l, (i) => frame.origins[i], frame.origins.length);
    }
    const kindKey = `${kind}|${m.quantileLevels?.join(',') ?? ''}`;
    const rw = rwByKind.get(kindKey) ?? randomWalkCrps(frame, kind, m.quantileLevels);
    rwByKind.set(kindKey, rw);
    table.push({
      model: m.model,
      crps_kind: kind,
      squared_error: squared,
      crps,
      random_walk_crps: rows.map((i) => num(rw[i])),
    });
  }
  return {
    rule: LOSS_TABLE_RULE,
    origins: {
      series_id: origins.map((o) => panel.seriesIds[panel.originSeries[o]]),
      origin: origins.map((o) => panel.originIso[o]),
      unit: units,
      window: origins.map((o) => panel.originWindow?.[o] ?? null),
      horizon: origins.map((o) => panel.horizon[o]),
    },
    models: table,
  };
}
