import type { ModelForecasts } from './align-forecasts.ts';
import { dmVerdicts } from './dm-verdicts.ts';
import { MetricCells, type ScoringScope } from './metric-cells.ts';
import type { MetricValue, PooledValue, ScoringResults } from './results-schema.ts';
import { scoreFintsbPanel } from './score-fintsb-panel.ts';
import { scoreFinversePanel } from './score-finverse-panel.ts';
import { scoreTycheonPanel } from './score-tycheon-panel.ts';
import { type TycheonLosses, tycheonFrame, tycheonLosses } from './tycheon-scores.ts';

/**
 * Every metric and the DM verdicts of `models` on one panel: the whole task set for the baselines and the
 * full-coverage models, or a partial model's own origins (selectPanelOrigins) for it and the baselines.
 * Each metric family fills its own cells (score-finverse-panel, score-tycheon-panel, score-fintsb-panel);
 * the verdicts compare each model's Tycheon losses with the random walk's (dm-verdicts).
 */
export function scoreModels(
  scope: ScoringScope,
  models: readonly ModelForecasts[],
): { values: MetricValue[]; verdicts: ScoringResults['verdicts']; pooled: PooledValue[] } {
  const { panel, unitInfo, config, overlap, step, seriesUnit } = scope;
  const cells = new MetricCells(models);
  step('baselines ready');
  scoreFinversePanel(scope, models, cells);
  // Tycheon: horizon-end log returns (scaled change for series that reach ≤ 0); FinTSB: simple returns.
  // The series' frequency sets the random walk's volatility window (RANDOM_WALK_SIGMA_RETURNS).
  const frame = tycheonFrame(panel, (s) => unitInfo.get(seriesUnit[s] ?? '')?.frequency);
  const losses = new Map<string, TycheonLosses>();
  for (const m of models) losses.set(m.model, tycheonLosses(panel, m, frame));
  const pooled = scoreTycheonPanel(scope, models, cells, frame, losses);
  scoreFintsbPanel(scope, models, cells, frame, losses);
  const verdicts = dmVerdicts(panel, frame, models, losses, unitInfo, overlap, config, scope.verdictsFor);
  return { values: cells.values(), verdicts, pooled };
}
