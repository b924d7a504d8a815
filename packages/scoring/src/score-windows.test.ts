import { describe, expect, it } from 'vitest';
import { alignForecasts, forecastRowsToTable } from './align-forecasts.ts';
import { buildEvaluationPanel } from './build-evaluation-panel.ts';
import { gaussian, makeRandomWalkPanel, mulberry32 } from './make-random-walk-panel.ts';
import { dieboldMariano } from './metrics/diebold-mariano.ts';
import { renderLeaderboard } from './render-leaderboard.ts';
import { type LossTable, ScoringResults, type VerdictRow } from './results-schema.ts';
import { scorePanel } from './score-panel.ts';
import type { ForecastRow, OriginRow, ScoringWindow } from './score-types.ts';

// Issue 51 item 6: a panel whose origins are labelled T1 (first 12 of each series), T2 (next 12) and T3 (last
// 6, the last two target steps pending). The "memoriser" is near the truth on T1 and noisy on T2, as a model
// that saw T1's answers in training would be.
const data = makeRandomWalkPanel({ seed: 11, units: 2, seriesPerUnit: 4, originsPerSeries: 30 });
const windowOf = (j: number): ScoringWindow => (j < 12 ? 'T1' : j < 24 ? 'T2' : 'T3');
const index = new Map<string, number>();
const origins: OriginRow[] = data.origins.map((o) => {
  const j = index.get(o.series_id) ?? 0;
  index.set(o.series_id, j + 1);
  return { ...o, window: windowOf(j) };
});
const windowAt = new Map(origins.map((o) => [`${o.series_id}|${o.origin}`, o.window!]));
const targets = data.targets.filter(
  (t) => !(windowAt.get(`${t.series_id}|${t.origin}`) === 'T3' && t.step > 3),
);
const panel = buildEvaluationPanel(origins, targets);
const normal = gaussian(mulberry32(5));
const truth = new Map(data.targets.map((t) => [`${t.series_id}|${t.origin}|${t.step}`, t.value]));
const rows = (model: string, noise: (w: ScoringWindow) => number, keep = (_o: OriginRow) => true) =>
  origins.filter(keep).flatMap((o) =>
    Array.from({ length: o.horizon }, (_, k): ForecastRow => {
      const y = truth.get(`${o.series_id}|${o.origin}|${k + 1}`)!;
      return {
        model,
        series_id: o.series_id,
        origin: o.origin,
        step: k + 1,
        value: y + noise(o.window!) * normal(),
      };
    }),
  );
const memoriser = alignForecasts(
  panel,
  forecastRowsToTable(rows('memoriser', (w) => (w === 'T1' ? 0.05 : 4))),
);
// Partial: the first 6 T2 origins of each series only.
const t2Count = new Map<string, number>();
const partial = alignForecasts(
  panel,
  forecastRowsToTable(
    rows(
      'partial',
      () => 0.5,
      (o) => {
        if (o.window !== 'T2') return false;
        const n = t2Count.get(o.series_id) ?? 0;
        t2Count.set(o.series_id, n + 1);
        return n < 6;
      },
    ),
  ),
);
const models = [...memoriser, ...partial];
const results = scorePanel({ tasks: data.tasks, panel, models });

/** Every DM verdict row of a section, recomputed from the loss table alone (its rule). */
function recompute(losses: LossTable, rows: readonly VerdictRow[], window: ScoringWindow | null): number {
  const rw = losses.models.find((m) => m.model === 'random_walk')!;
  let checked = 0;
  for (const r of rows) {
    const m = losses.models.find((x) => x.model === r.model)!;
    const idx: number[] = [];
    for (let i = 0; i < losses.origins.unit.length; i++) {
      if (m.squared_error[i] === null) continue;
      if (window && losses.origins.window[i] !== window) continue;
      if (r.unit !== '*' && losses.origins.unit[i] !== r.unit) continue;
      idx.push(i);
    }
    expect(idx.length, `${r.model} ${r.unit}`).toBe(r.n);
    const se = dieboldMariano(
      idx.map((i) => m.squared_error[i]!),
      idx.map((i) => rw.squared_error[i]!),
    );
    const cr = dieboldMariano(
      idx.map((i) => m.crps[i]!),
      idx.map((i) => m.random_walk_crps[i]!),
    );
    const f = (x: number) => (Number.isFinite(x) ? x : null);
    expect(f(se.statistic), `${r.model} ${r.unit} SE`).toBe(r.squared_error?.statistic ?? null);
    expect(f(se.pModelBetter)).toBe(r.squared_error?.p_model_better ?? null);
    expect(f(cr.statistic), `${r.model} ${r.unit} CRPS`).toBe(r.crps?.statistic ?? null);
    expect(f(cr.pModelWorse)).toBe(r.crps?.p_model_worse ?? null);
    checked++;
  }
  return checked;
}

describe('scores per knowledge window (issue 51 item 6)', () => {
  it('validates, and scores all origins and each window present, in order', () => {
    expect(ScoringResults.safeParse(results).success).toBe(true);
    expect(results.windows.map((w) => w.window)).toEqual(['T1', 'T2', 'T3']);
    expect(results.windows.map((w) => w.origins.origins)).toEqual([96, 96, 48]);
    expect(results.origins.origins).toBe(240);
    // The partial model has no T1 origin: it is not in T1; in T2 it covers half the window.
    expect(results.windows[0].models.map((m) => m.model)).not.toContain('partial');
    const p2 = results.windows[1].models.find((m) => m.model === 'partial')!;
    expect(p2.coverage.origins).toBe(48);
    expect(p2.coverage.share).toBe(0.5);
  });

  it('gives each window its own values, verdicts and ranks, which differ from the pooled ones', () => {
    const mae = (vs: ScoringResults['values'], model: string) =>
      vs.find((v) => v.model === model && v.metric === 'tycheon.mae' && v.unit.includes('Cat0'))!.value!;
    const [t1, t2] = results.windows;
    const all = mae(results.values, 'memoriser');
    expect(mae(t1.values, 'memoriser')).toBeLessThan(all);
    expect(mae(t2.values, 'memoriser')).toBeGreaterThan(all);
    // The baselines do not depend on the model: their window values differ from the pooled ones too.
    expect(mae(t1.values, 'random_walk')).not.toBe(mae(results.values, 'random_walk'));
    const verdict = (rows: VerdictRow[]) => rows.find((r) => r.model === 'memoriser' && r.unit === '*')!;
    expect(verdict(t1.verdicts.rows).verdict).toBe('beats');
    expect(verdict(t2.verdicts.rows).verdict).toBe('worse');
    expect(verdict(t1.verdicts.rows).n).toBe(96);
    const rank = (w: (typeof results.windows)[number]) =>
      w.ranks.overall.models.find((m) => m.model === 'memoriser')!;
    expect(rank(t1).position).toBe(1);
    // Ranked on T2's origins alone, its aspect ranks add up to more (worse) than on T1's.
    expect(rank(t2).overall).toBeGreaterThan(rank(t1).overall);
    // T3: its origins have no horizon-end value, so no verdict, but FinVerse cells on the known steps.
    const t3 = results.windows[2];
    const t3Pooled = t3.verdicts.rows.filter((r) => r.unit === '*');
    expect(t3Pooled.length).toBeGreaterThan(0);
    for (const r of t3Pooled) expect([r.n, r.verdict]).toEqual([0, null]);
    expect(t3.origins).toMatchObject({ origins: 48, points: 240 });
  });

  it('keeps the per-origin losses behind every verdict: each one recomputes from results.json alone', () => {
    const losses = results.losses!;
    expect(losses.origins.unit.length).toBe(192);
    const json = JSON.parse(JSON.stringify(results)) as ScoringResults;
    let n = recompute(json.losses!, json.verdicts.rows, null);
    for (const w of json.windows)
      n += recompute(
        json.losses!,
        w.verdicts.rows.filter((r) => r.n >= 2),
        w.window,
      );
    expect(n).toBeGreaterThan(40);
  });

  it('states the memorisation gap, T1 − T2 of the pooled losses, beside the baselines’ own', () => {
    const gap = (model: string, metric: 'squared_error' | 'crps') =>
      results.memorisation_gap.find((g) => g.model === model && g.metric === metric)!;
    const g = gap('memoriser', 'squared_error');
    const l = results.losses!;
    const m = l.models.find((x) => x.model === 'memoriser')!;
    const mean = (w: ScoringWindow) => {
      const xs = m.squared_error.filter((x, i) => x !== null && l.origins.window[i] === w) as number[];
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    expect(g.t1).toBe(mean('T1'));
    expect(g.t2).toBe(mean('T2'));
    expect(g.gap).toBe(g.t1! - g.t2!);
    expect(g.n_t1).toBe(96);
    // Log-return squared errors are ~1e-3 here: the memoriser's gap is far below the random walk's.
    expect(g.gap!).toBeLessThan(gap('random_walk', 'squared_error').gap! - 1e-3);
    expect(gap('partial', 'crps').n_t1).toBe(0);
    expect(gap('partial', 'crps').gap).toBeNull();
    const md = renderLeaderboard(results);
    expect(md).toContain('## Scores per knowledge window');
    expect(md).toContain('### T2: origins after the cutoff');
    expect(md).toContain('## Memorisation gap (T1 − T2)');
  });

  it('--window T2 gives exactly the T2 section’s numbers', () => {
    const only = scorePanel({ tasks: data.tasks, panel, models, options: { window: 'T2' } });
    const t2 = results.windows[1];
    expect(only.config.window).toBe('T2');
    expect(only.windows).toEqual([]);
    expect(only.memorisation_gap).toEqual([]);
    expect(only.values).toEqual(t2.values);
    expect(only.pooled).toEqual(t2.pooled);
    expect(only.verdicts).toEqual(t2.verdicts);
    expect(only.ranks).toEqual(t2.ranks);
    expect(only.same_points).toEqual(t2.same_points);
    expect(only.baselines_win).toEqual(t2.baselines_win);
    expect(only.models).toEqual(t2.models);
    expect(only.comparison.task_set).toEqual(t2.task_set);
    expect(only.losses!.origins.window.every((w) => w === 'T2')).toBe(true);
    expect(recompute(only.losses!, only.verdicts.rows, null)).toBeGreaterThan(10);
    expect(renderLeaderboard(only)).toContain('**Window T2 only**');
    // All origins keep the config they always had: no window key.
    expect('window' in results.config).toBe(false);
  });

  it('refuses --window for a window with no origin, or a model with none of its origins', () => {
    expect(() =>
      scorePanel({ tasks: data.tasks, panel, models: partial, options: { window: 'T1' } }),
    ).toThrow(expect.objectContaining({ code: 'SCORE_WINDOW_NOT_COVERED' }));
    const unlabelled = buildEvaluationPanel(data.origins, data.targets);
    expect(() =>
      scorePanel({ tasks: data.tasks, panel: unlabelled, models: [], options: { window: 'T2' } }),
    ).toThrow(expect.objectContaining({ code: 'SCORE_WINDOW_EMPTY' }));
    const plain = scorePanel({ tasks: data.tasks, panel: unlabelled, models: [] });
    expect(plain.windows).toEqual([]);
    expect(plain.memorisation_gap).toEqual([]);
    expect(plain.losses!.origins.window.every((w) => w === null)).toBe(true);
  });
});
