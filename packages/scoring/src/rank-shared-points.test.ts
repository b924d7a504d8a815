import { describe, expect, it } from 'vitest';
import { alignForecasts, forecastRowsToTable } from './align-forecasts.ts';
import { decodeBaselines, encodeBaselines } from './baseline-cache.ts';
import { buildEvaluationPanel } from './build-evaluation-panel.ts';
import { type FittedBaselineNotes, makePanelBaselines } from './make-baseline-forecasts.ts';
import { makeRandomWalkPanel } from './make-random-walk-panel.ts';
import { RANKED_BY } from './rank-blocks.ts';
import { overallRankingLine, renderLeaderboard } from './render-leaderboard.ts';
import { type RankBlock, ScoringResults } from './results-schema.ts';
import { scorePanel, seriesFrequencyOf } from './score-panel.ts';
import { BASELINE_MODELS, type ForecastRow, type OriginRow } from './score-types.ts';

// Issue 51 item 7 (docs/decisions/0059): rankings on the points the models share, GARCH scored only where it
// was fitted, and every ranking naming the metric family it ranks by.
const H = 5;
const data = makeRandomWalkPanel({
  seed: 7,
  units: 2,
  seriesPerUnit: 5,
  originsPerSeries: 12,
  horizon: H,
  tail: 60,
});
const CAT0 = 'Intra-country / Cat0 / Detail0 / BD';
const CAT1 = 'Intra-country / Cat1 / Detail1 / BD';
const target = new Map(data.targets.map((t) => [`${t.series_id}|${t.origin}|${t.step}`, t.value]));
const r = (o: OriginRow) => Math.log(target.get(`${o.series_id}|${o.origin}|${H}`)! / o.last_value);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function rows(model: string, origins: readonly OriginRow[], lift: (o: OriginRow) => number): ForecastRow[] {
  return origins.flatMap((o) =>
    Array.from({ length: H }, (_, k) => ({
      model,
      series_id: o.series_id,
      origin: o.origin,
      step: k + 1,
      value: o.last_value * (1 + lift(o)),
    })),
  );
}

describe('a model that skips one pair is ranked on the points it shares with the others', () => {
  const panel = buildEvaluationPanel(data.origins, data.targets);
  // Its last origin, so the fitted baselines' refit schedule (counted from each series' first origin) is the
  // same on the rebuilt panel below.
  const skipped = data.origins.filter((o) => o.series_id === 'u1s2').at(-1)!;
  const kept = data.origins.filter((o) => o !== skipped);
  const wobble = (o: OriginRow) => 0.003 * Math.sin(3 * o.last_value);
  const align = (p: typeof panel, x: ForecastRow[]) => alignForecasts(p, forecastRowsToTable(x))[0];
  const full = align(panel, rows('full', data.origins, wobble));
  const skip = align(
    panel,
    rows('skip', kept, () => 0.002),
  );
  const results = scorePanel({ tasks: data.tasks, panel, models: [full, skip] });

  it('is in the overall ranking, on 119 of the 120 paths (595 of 600 points), its coverage shown', () => {
    expect(ScoringResults.safeParse(results).success).toBe(true);
    const overall = results.ranks.overall;
    expect(overall.models.map((m) => m.model)).toContain('skip');
    expect(overall.models).toHaveLength(7);
    expect(overall.not_ranked).toEqual([]);
    expect(overall.points).toEqual({ origins: 119, points: 595, share: 595 / 600 });
    // Cat0 is whole for every model: its block is on all of its points; Cat1 loses the skipped path.
    expect(results.ranks.by_category.Cat0.points).toEqual({ origins: 60, points: 300, share: 1 });
    expect(results.ranks.by_category.Cat1.points).toEqual({ origins: 59, points: 295, share: 295 / 300 });
    expect(results.models.find((m) => m.model === 'skip')!.coverage).toMatchObject({
      origins: 119,
      points: 595,
      full_units: 1,
    });
    const md = renderLeaderboard(results);
    expect(md).toMatch(/\| skip \| 10 \| 119 \| 595 \| 99\.2% \| all blocks \|/);
    expect(md).toContain(
      'on 119 paths, 595 points (99.2% of the task set) that every ranked model forecasts.',
    );
  });

  it('ranks every model exactly as on a split without the skipped pair', () => {
    // An independent route: the panel rebuilt from the other 119 origins, every model covering all of it.
    const cut = buildEvaluationPanel(
      kept,
      data.targets.filter((t) => !(t.series_id === skipped.series_id && t.origin === skipped.origin)),
    );
    const byHand = scorePanel({
      tasks: data.tasks,
      panel: cut,
      models: [
        align(cut, rows('full', kept, wobble)),
        align(
          cut,
          rows('skip', kept, () => 0.002),
        ),
      ],
      options: { originStride: H },
    });
    const strip = (b: RankBlock) => ({ aspects: b.aspects, cells: b.cells_per_aspect, models: b.models });
    expect(strip(results.ranks.overall)).toEqual(strip(byHand.ranks.overall));
    expect(strip(results.ranks.by_category.Cat1)).toEqual(strip(byHand.ranks.by_category.Cat1));
    // The values in results.json stay on each model's own points: the full model's on all 120 paths.
    const v = (x: ScoringResults, m: string) =>
      x.values.find((y) => y.model === m && y.unit === CAT1 && y.metric === 'tycheon.mae')!.value!;
    const allCat1 = data.origins.filter((o) => o.series_id.startsWith('u1'));
    const maeByHand = mean(
      [0, 1, 2, 3, 4].map((k) =>
        mean(
          allCat1
            .filter((o) => o.series_id === `u1s${k}`)
            .map((o) => Math.abs(Math.log(1 + wobble(o)) - r(o))),
        ),
      ),
    );
    expect(v(results, 'full')).toBeCloseTo(maeByHand, 12);
    expect(Math.abs(v(results, 'full') - v(byHand, 'full'))).toBeGreaterThan(1e-7);
  });
});

describe('GARCH is scored only on the origins where it was fitted', () => {
  // u0s0: a 20-value window (19 returns, fewer than GARCH_MIN_RETURNS): too short at all 12 origins.
  // u1s0: a constant window (every return zero): the ML fit fails at all 12 origins.
  const origins = data.origins.map((o) =>
    o.series_id === 'u0s0'
      ? { ...o, history_tail: o.history_tail!.slice(-20) }
      : o.series_id === 'u1s0'
        ? { ...o, history_tail: o.history_tail!.map(() => o.last_value) }
        : o,
  );
  const panel = buildEvaluationPanel(origins, data.targets);
  const results = scorePanel({ tasks: data.tasks, panel, models: [] });
  const fitted = origins.filter((o) => o.series_id !== 'u0s0' && o.series_id !== 'u1s0');

  it('counts the fallbacks by reason in results.json and the leaderboard', () => {
    expect(ScoringResults.safeParse(results).success).toBe(true);
    const garch = results.baseline_fits.find((f) => f.model === 'garch')!;
    expect(garch).toEqual({
      model: 'garch',
      origins: 120,
      fitted: 96,
      fallback: 24,
      reasons: { fit_failed: 12, short_window: 12 },
      no_path: 0,
      not_converged: garch.not_converged,
      scored_on: 'fitted',
    });
    expect(results.baseline_fits.find((f) => f.model === 'arima')).toMatchObject({
      origins: 120,
      scored_on: 'all',
    });
    expect(results.warnings.find((w) => w.code === 'GARCH_FIT_FALLBACK')).toMatchObject({ count: 24 });
    const md = renderLeaderboard(results);
    expect(md).toContain('## Fitted baselines: where they were fitted');
    expect(md).toContain(
      '| garch | 120 | 96 | 24 (fit\\_failed 12, short\\_window 12) | 0 | ' +
        `${garch.not_converged} | its 96 fitted origins only |`,
    );
  });

  it('leaves the fallback origins out of its coverage, values and verdict (hand-computed MAE)', () => {
    const cov = results.models.find((m) => m.model === 'garch')!.coverage;
    expect(cov).toEqual({ series: 8, origins: 96, points: 480, share: 0.8, units: 2, full_units: 0 });
    const pooled = results.verdicts.rows.find((v) => v.model === 'garch' && v.unit === '*')!;
    expect(pooled.partial).toBe(true);
    expect(pooled.n).toBe(96);
    // GARCH's point is y_o: its Tycheon MAE in Cat0 is the mean over the 4 fitted series of mean |r|.
    const byHand = mean(
      [1, 2, 3, 4].map((k) =>
        mean(fitted.filter((o) => o.series_id === `u0s${k}`).map((o) => Math.abs(r(o)))),
      ),
    );
    const g = results.values.find(
      (v) => v.model === 'garch' && v.unit === CAT0 && v.metric === 'tycheon.mae',
    )!;
    expect(g.value).toBeCloseTo(byHand, 12);
    expect(g.series).toBe(4);
    expect(g.partial).toBe(true);
    // The random walk on GARCH's points (same_points) is on the same 4 series; on the unit, on all 5.
    const same = results.same_points.find((p) => p.model === 'garch')!;
    const rwSame = same.values.find(
      (v) => v.model === 'random_walk' && v.unit === CAT0 && v.metric === 'tycheon.mae',
    )!;
    expect(rwSame.value).toBeCloseTo(byHand, 12);
    expect(rwSame.series).toBe(4);
    expect(
      results.values.find((v) => v.model === 'random_walk' && v.unit === CAT0 && v.metric === 'tycheon.mae')!
        .series,
    ).toBe(5);
    // Nowhere is GARCH compared with another model on its fallback origins: no baseline's same-points block
    // holds it, and the rank blocks rank everyone on its 96 paths.
    expect(same.values.some((v) => v.model === 'garch')).toBe(false);
    expect(results.ranks.overall.points).toEqual({ origins: 96, points: 480, share: 0.8 });
    expect(results.ranks.overall.models.map((m) => m.model)).toContain('garch');
  });

  it('is left out of the results when it was fitted at no origin (every window too short)', () => {
    const short = data.origins.map((o) => ({ ...o, history_tail: o.history_tail!.slice(-20) }));
    const res = scorePanel({
      tasks: data.tasks,
      panel: buildEvaluationPanel(short, data.targets),
      models: [],
    });
    expect(res.baseline_fits.find((f) => f.model === 'garch')).toMatchObject({
      fitted: 0,
      fallback: 120,
      reasons: { short_window: 120 },
    });
    expect(res.models.map((m) => m.model)).not.toContain('garch');
    expect(res.values.some((v) => v.model === 'garch')).toBe(false);
    expect(res.ranks.overall.points).toEqual({ origins: 120, points: 600, share: 1 });
    expect(renderLeaderboard(res)).toContain('| not scored: fitted at no origin |');
  });

  it('is left out of a knowledge window where it was fitted at no origin, and --window does not refuse it', () => {
    // Origins 1–10 of each series in T1 with a 20-value window (the refit at origin 1 falls back, origins
    // 2–10 reuse it), origins 11–12 in T2 with the whole window (refit at origin 11: fitted).
    const seen = new Map<string, number>();
    const labelled = data.origins.map((o) => {
      const j = seen.get(o.series_id) ?? 0;
      seen.set(o.series_id, j + 1);
      return j < 10
        ? { ...o, window: 'T1' as const, history_tail: o.history_tail!.slice(-20) }
        : { ...o, window: 'T2' as const };
    });
    const p = buildEvaluationPanel(labelled, data.targets);
    const all = scorePanel({ tasks: data.tasks, panel: p, models: [] });
    expect(all.baseline_fits.find((f) => f.model === 'garch')).toMatchObject({
      fitted: 20,
      reasons: { short_window: 100 },
    });
    const [t1, t2] = all.windows;
    expect(t1.models.map((m) => m.model)).not.toContain('garch');
    expect(t2.models.find((m) => m.model === 'garch')!.coverage.origins).toBe(20);
    const only = scorePanel({ tasks: data.tasks, panel: p, models: [], options: { window: 'T1' } });
    expect(only.models.map((m) => m.model)).not.toContain('garch');
    expect(only.values).toEqual(t1.values);
  });

  it('keeps which origins it was fitted at through the baselines cache', () => {
    const notes = new Map<string, FittedBaselineNotes>();
    const own = makePanelBaselines(panel, seriesFrequencyOf(panel, data.tasks), BASELINE_MODELS, {}, notes);
    const garch = own.find((m) => m.model === 'garch')!;
    expect(garch.covered!.reduce((a, b) => a + b, 0)).toBe(96);
    const back = decodeBaselines(
      encodeBaselines(own, notes, panel.actual.length),
      panel.actual.length,
      [...BASELINE_MODELS],
      panel.horizon.length,
    )!;
    expect(back.models).toEqual(own);
    expect(back.notes.get('garch')).toMatchObject({
      fallback: 24,
      reasons: { short_window: 12, fit_failed: 12 },
    });
  });
});

describe('every ranking names its metric family and metric', () => {
  const panel = buildEvaluationPanel(data.origins, data.targets);
  const few = alignForecasts(
    panel,
    forecastRowsToTable(
      rows(
        'few',
        data.origins.filter((o) => o.series_id === 'u0s3'),
        () => 0.01,
      ),
    ),
  );
  const results = scorePanel({ tasks: data.tasks, panel, models: few });
  const finverseMetrics = [
    ...new Set(
      results.values.filter((v) => v.family === 'finverse' && v.direction !== 'nominal').map((v) => v.metric),
    ),
  ].sort();

  it('in results.json: family, ranked_by and the metrics ranked, in every block', () => {
    const blocks: RankBlock[] = [
      results.ranks.overall,
      ...Object.values(results.ranks.by_scope),
      ...Object.values(results.ranks.by_category),
      ...Object.values(results.ranks.by_frequency),
      ...results.same_points.map((p) => p.ranks),
    ];
    expect(blocks.length).toBe(1 + 1 + 2 + 1 + 1);
    for (const b of blocks) {
      expect(b.family).toBe('finverse');
      expect(b.ranked_by).toBe(RANKED_BY);
      expect(b.metrics).toEqual(finverseMetrics);
    }
    expect(RANKED_BY).toMatch(/^FinVerse's rank aggregation \(docs\/glossary\.md\) of the FinVerse metrics/);
  });

  it('in the leaderboard: every rank table under a caption naming the family and its metrics', () => {
    const md = renderLeaderboard(results);
    const lines = md.split('\n');
    const tables = lines.flatMap((l, i) => (l.startsWith('| # | model |') ? [i] : []));
    expect(tables.length).toBe(2); // overall, and few's block with the baselines
    for (const i of tables) {
      expect(lines[i - 2]).toMatch(
        /^Ranked by \*\*FinVerse rank aggregation\*\* \(metric family `finverse`; \d+ metric\(s\): /,
      );
    }
    expect(md).toContain('## Overall ranking: FinVerse family (rank aggregation, docs/glossary.md');
    expect(md).toContain('## Verdicts against the random walk (Tycheon family');
    // The terminal's line above the overall table (asof score).
    expect(overallRankingLine(results)).toBe(
      `overall ranking: FinVerse rank aggregation (metric family finverse, ${finverseMetrics.length} metric(s)) on 120 shared paths (100% of the task set); vs random walk: Tycheon squared error and CRPS (Diebold–Mariano)`,
    );
    for (const by of ['scope', 'category', 'frequency'])
      expect(md).toContain(`### By ${by} (FinVerse rank aggregation, metric family \`finverse\`)`);
  });
});
