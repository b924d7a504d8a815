import { gaussian, mulberry32 } from '@asof/baselines';
import type { OriginRow, TargetRow, TaskRow } from './score-types.ts';

// The generators live in @asof/baselines, whose tests simulate from them; re-exported for this package's
// tests and benches.
export { gaussian, mulberry32 };

/** Weekday dates from 2000-01-03 (a Monday), as YYYY-MM-DD. */
export function businessDays(count: number): string[] {
  const out: string[] = [];
  for (let d = Date.UTC(2000, 0, 3); out.length < count; d += 86_400_000) {
    const wd = new Date(d).getUTCDay();
    if (wd !== 0 && wd !== 6) out.push(new Date(d).toISOString().slice(0, 10));
  }
  return out;
}

export interface RandomWalkPanel {
  tasks: TaskRow[];
  origins: OriginRow[];
  targets: TargetRow[];
  /** the full paths, for building oracle forecasts in tests */
  paths: Map<string, Float64Array>;
}

/**
 * A driftless Gaussian random-walk panel on the BD calendar: `units` units of `seriesPerUnit` series,
 * origins every `spacing` steps with horizon H and a history tail of `tail` values, and FinVerse tasks
 * HR/ΔHR/Δ²HR/MASE_rel/MASE_abs (1w,1w), MASE_ori, IC (1w,1w) and portfolio (1w,1w).
 */
export function makeRandomWalkPanel(options: {
  seed: number;
  units?: number;
  seriesPerUnit?: number;
  originsPerSeries?: number;
  horizon?: number;
  spacing?: number;
  tail?: number;
  sigma?: number;
}): RandomWalkPanel {
  const units = options.units ?? 2;
  const perUnit = options.seriesPerUnit ?? 5;
  const nOrigins = options.originsPerSeries ?? 40;
  const H = options.horizon ?? 5;
  const spacing = options.spacing ?? H;
  const tail = options.tail ?? 60;
  const sigma = options.sigma ?? 1;
  const length = tail + spacing * (nOrigins - 1) + H;
  const dates = businessDays(length);
  const normal = gaussian(mulberry32(options.seed));
  const tasks: TaskRow[] = [];
  const origins: OriginRow[] = [];
  const targets: TargetRow[] = [];
  const paths = new Map<string, Float64Array>();
  for (let u = 0; u < units; u++) {
    const unit = {
      scope: 'Intra-country',
      category: `Cat${u}`,
      detail_category: `Detail${u}`,
      frequency: 'BD',
    };
    for (let k = 0; k < perUnit; k++) {
      const id = `u${u}s${k}`;
      const y = new Float64Array(length);
      y[0] = 100;
      for (let t = 1; t < length; t++) y[t] = y[t - 1] + sigma * normal();
      paths.set(id, y);
      const task = (aspect: string, metric: string, ph: boolean) =>
        tasks.push({
          series_id: id,
          aspect,
          metric,
          p: ph ? '1w' : null,
          h: ph ? '1w' : null,
          p_steps: ph ? 5 : null,
          h_steps: ph ? 5 : null,
          ...unit,
        });
      for (const m of ['HR', 'DHR', 'D2HR', 'MASE_rel', 'MASE_abs']) task('Point-wise', m, true);
      task('Point-wise', 'MASE_ori', false);
      task('Cross-sectional', 'IC', true);
      for (const m of ['return', 'vol', 'Sharpe', 'MDD']) task('Portfolio', m, true);
      for (let j = 0; j < nOrigins; j++) {
        const t0 = tail - 1 + j * spacing;
        origins.push({
          series_id: id,
          origin: dates[t0],
          horizon: H,
          last_value: y[t0],
          history_tail: Array.from(y.subarray(t0 - tail + 1, t0 + 1)),
        });
        for (let s = 1; s <= H; s++)
          targets.push({ series_id: id, origin: dates[t0], step: s, value: y[t0 + s] });
      }
    }
  }
  return { tasks, origins, targets, paths };
}

/**
 * The smallest task row a hand-made panel needs: MASE_ori (no (p,h)) for one series, in the unit
 * `scope / category / detail_category / frequency` (scope, category and detail default to 'Test').
 */
export function maseOriTask(
  series_id: string,
  unit: { frequency: string; scope?: string; category?: string; detail_category?: string },
): TaskRow {
  return {
    series_id,
    aspect: 'Point-wise',
    metric: 'MASE_ori',
    p: null,
    h: null,
    p_steps: null,
    h_steps: null,
    scope: unit.scope ?? 'Test',
    category: unit.category ?? 'Test',
    detail_category: unit.detail_category ?? 'Test',
    frequency: unit.frequency,
  };
}
