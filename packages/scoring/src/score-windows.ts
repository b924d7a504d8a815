import { InputError } from '@asof/schema';
import type { ModelForecasts } from './align-forecasts.ts';
import type { EvaluationPanel } from './build-evaluation-panel.ts';
import type { ScoringScope } from './metric-cells.ts';
import { coveredScope } from './panel-coverage.ts';
import type { LossTable, MemorisationGap } from './results-schema.ts';
import { SCORING_WINDOWS, type ScoringWindow } from './score-types.ts';
import { selectModelOrigins, selectPanelOrigins } from './select-panel-origins.ts';

/** The windows with at least one origin of a scored series, in T1, T2, T3 order. */
export function windowsPresent(
  panel: EvaluationPanel,
  seriesUnit: readonly (string | undefined)[],
): ScoringWindow[] {
  const w = panel.originWindow;
  if (!w) return [];
  const seen = new Set<ScoringWindow>();
  for (let o = 0; o < panel.horizon.length; o++) {
    const x = w[o];
    if (x !== undefined && seriesUnit[panel.originSeries[o]] !== undefined) seen.add(x);
  }
  return SCORING_WINDOWS.filter((x) => seen.has(x));
}

/**
 * The scope and models of one window: the panel cut to the window's origins (selectPanelOrigins: same series
 * indices, same Tycheon space, the units' spacing and the overlap check stay the full panel's), each model
 * restricted to them. The baselines were made on every origin (the fitted ones count origins per series for
 * their refit schedule), so a window's baselines are exactly the all-origins baselines on its origins. A model
 * covering every origin of the window is a full-coverage model in it; one covering none is not in it.
 */
export function windowScope(
  scope: ScoringScope,
  models: readonly ModelForecasts[],
  window: ScoringWindow,
): { scope: ScoringScope; models: ModelForecasts[]; absent: string[] } {
  const full = scope.panel;
  const keep = new Uint8Array(full.horizon.length);
  for (let o = 0; o < keep.length; o++) keep[o] = full.originWindow?.[o] === window ? 1 : 0;
  const selection = selectPanelOrigins(full, keep);
  const kept: ModelForecasts[] = [];
  const absent: string[] = [];
  for (const m of models) {
    const sub = selectModelOrigins(full, selection, m);
    if (!m.covered) {
      kept.push(sub);
      continue;
    }
    const covered = Uint8Array.from(selection.origins, (o) => m.covered![o]);
    let n = 0;
    for (const c of covered) n += c;
    if (n === 0) absent.push(m.model);
    else kept.push({ ...sub, covered: n === covered.length ? null : covered });
  }
  return {
    scope: {
      ...scope,
      ...coveredScope(selection.panel, scope.seriesUnit, scope.unitInfo),
      step: (what) => scope.step(`${window}: ${what}`),
    },
    models: kept,
    absent,
  };
}

/**
 * `asof score --window W`: the scope of W alone, refused (exit 2) when the split labels no origin with W or a
 * submitted model forecasts none of W's origins (it would silently vanish from the results).
 */
export function onlyWindow(
  scope: ScoringScope,
  models: readonly ModelForecasts[],
  window: ScoringWindow,
  where: string,
): { scope: ScoringScope; models: ModelForecasts[] } {
  const present = windowsPresent(scope.panel, scope.seriesUnit);
  if (!present.includes(window)) {
    throw new InputError(
      'SCORE_WINDOW_EMPTY',
      scope.panel.originWindow
        ? `${where}: --window ${window}: the split has no scored origin in ${window} (windows present: ${present.join(', ') || 'none'}); pick one of those, or score all origins without --window`
        : `${where}: --window ${window}: the split labels no origin with a window; make it with 'asof split --model-cutoff DATE --run-date DATE', or score without --window`,
      { context: { file: where, field: 'window', value: window } },
    );
  }
  const w = windowScope(scope, models, window);
  // A baseline scored only where it was fitted (GARCH) may have no fitted origin in the window: left out.
  const baselines = new Set(models.filter((m) => m.baseline).map((m) => m.model));
  w.absent = w.absent.filter((m) => !baselines.has(m));
  if (w.absent.length) {
    throw new InputError(
      'SCORE_WINDOW_NOT_COVERED',
      `--window ${window}: model ${w.absent[0]} forecasts no origin of ${window}; score it without --window, or give it forecasts for ${window}'s origins`,
      { context: { field: 'window', value: window, model: w.absent[0] } },
    );
  }
  return { scope: w.scope, models: w.models };
}

/**
 * The memorisation gap: per model, the mean of each DM loss over its T1 origins minus the mean over its T2
 * origins (the loss table's rows of scored series whose loss is known). Empty unless both windows hold rows.
 */
export function memorisationGap(losses: LossTable, baselines: ReadonlySet<string>): MemorisationGap[] {
  const win = losses.origins.window;
  if (!win.includes('T1') || !win.includes('T2')) return [];
  const out: MemorisationGap[] = [];
  for (const m of losses.models) {
    for (const metric of ['squared_error', 'crps'] as const) {
      const column = m[metric];
      const mean = (w: ScoringWindow) => {
        let sum = 0;
        let n = 0;
        for (let i = 0; i < column.length; i++) {
          const x = column[i];
          if (win[i] === w && x !== null) {
            sum += x;
            n++;
          }
        }
        return { value: n ? sum / n : null, n };
      };
      const t1 = mean('T1');
      const t2 = mean('T2');
      out.push({
        model: m.model,
        baseline: baselines.has(m.model),
        metric,
        crps_kind: m.crps_kind,
        t1: t1.value,
        t2: t2.value,
        gap: t1.value !== null && t2.value !== null ? t1.value - t2.value : null,
        n_t1: t1.n,
        n_t2: t2.n,
      });
    }
  }
  return out;
}
