import { InputError } from '@asof/schema';
import type { ModelForecasts } from './align-forecasts.ts';
import type { EvaluationPanel } from './build-evaluation-panel.ts';
import type { OverlapCheck } from './check-overlap.ts';
import { type DieboldMarianoResult, dieboldMariano } from './metrics/diebold-mariano.ts';
import { verdictVsRandomWalk } from './metrics/verdict-vs-random-walk.ts';
import type { ScoringConfig, ScoringResults, VerdictRow } from './results-schema.ts';
import { RANDOM_WALK } from './score-types.ts';
import { randomWalkCrps, type TycheonFrame, type TycheonLosses } from './tycheon-scores.ts';

function dmJson(r: DieboldMarianoResult) {
  const f = (x: number) => (Number.isFinite(x) ? x : null);
  return {
    statistic: f(r.statistic),
    p_model_better: f(r.pModelBetter),
    p_model_worse: f(r.pModelWorse),
    mean_differential: f(r.meanDifferential),
    n: r.n,
    horizon: r.horizon,
  };
}

/**
 * Diebold–Mariano (HLN) verdicts of each model against the random walk, per unit and pooled (`unit: '*'`),
 * on squared error and on CRPS of the same kind (randomWalkCrps), or refused when the origins overlap and
 * overlap is not allowed.
 */
export function dmVerdicts(
  panel: EvaluationPanel,
  frame: TycheonFrame,
  models: readonly ModelForecasts[],
  losses: Map<string, TycheonLosses>,
  unitInfo: Map<string, { series: number[] }>,
  overlap: OverlapCheck,
  config: ScoringConfig,
  verdictsFor?: ReadonlySet<string>,
): ScoringResults['verdicts'] {
  if (overlap.overlapping && !config.allow_overlap) {
    return {
      status: 'refused',
      reason:
        `Diebold–Mariano verdicts refused: ${overlap.reason}. Overlapping forecast errors are autocorrelated and the ` +
        'pooled test would be over-confident. Split with non-overlapping origins (≥ H steps apart), or pass ' +
        '--allow-overlap to run DM with H − 1 autocovariances (HLN) at your own risk.',
      rows: [],
    };
  }
  const rw = losses.get(RANDOM_WALK)!;
  const groups: [string, Int32Array][] = [];
  const all: number[] = [];
  for (const unit of [...unitInfo.keys()].sort()) {
    const idx: number[] = [];
    for (const s of unitInfo.get(unit)!.series)
      for (let i = frame.seriesStart[s]; i < frame.seriesStart[s + 1]; i++) idx.push(i);
    groups.push([unit, Int32Array.from(idx)]);
    // A loop, not push(...idx): spreading 100k+ arguments overflows the call stack.
    for (const i of idx) all.push(i);
  }
  groups.push(['*', Int32Array.from(all)]);
  const rwCrpsByKind = new Map<string, Float64Array>();
  const rows: VerdictRow[] = [];
  for (const m of models) {
    if (m.model === RANDOM_WALK || (verdictsFor && !verdictsFor.has(m.model))) continue;
    const l = losses.get(m.model)!;
    const kindKey = `${l.kind}|${m.quantileLevels?.join(',') ?? ''}`;
    let rwCrps = rwCrpsByKind.get(kindKey);
    if (!rwCrps) {
      rwCrps = randomWalkCrps(frame, l.kind, m.quantileLevels);
      rwCrpsByKind.set(kindKey, rwCrps);
    }
    for (const [unit, idx] of groups) {
      const n = idx.length;
      let h = 1;
      if (overlap.overlapping) for (const i of idx) h = Math.max(h, panel.horizon[frame.origins[i]]);
      const pick = (x: Float64Array) => {
        const out = new Float64Array(n);
        for (let k = 0; k < n; k++) out[k] = x[idx[k]];
        return out;
      };
      const row: VerdictRow = {
        model: m.model,
        unit,
        n,
        squared_error: null,
        crps: null,
        crps_kind: l.kind,
        crps_approximate: l.approximate,
        verdict: null,
      };
      try {
        const se = dieboldMariano(pick(l.squaredError), pick(rw.squaredError), { horizon: h });
        const cr = dieboldMariano(pick(l.crps), pick(rwCrps), { horizon: h });
        row.squared_error = dmJson(se);
        row.crps = dmJson(cr);
        row.verdict = verdictVsRandomWalk(se, cr, config.alpha);
        const untested = [
          Number.isNaN(se.statistic) ? 'squared error' : null,
          Number.isNaN(cr.statistic) ? 'CRPS' : null,
        ].filter((x) => x !== null);
        if (untested.length)
          row.note = `the ${untested.join(' and ')} loss differential has no variance above rounding level (losses identical up to float rounding): no test there, so not beats or worse`;
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
        row.note = err.message;
      }
      rows.push(row);
    }
  }
  return { status: 'ok', rows };
}
