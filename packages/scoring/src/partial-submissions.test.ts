import { InputError } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { alignForecasts, forecastRowsToTable } from './align-forecasts.ts';
import { buildEvaluationPanel } from './build-evaluation-panel.ts';
import { escapeMarkdown } from './escape-markdown.ts';
import { makeRandomWalkPanel } from './make-random-walk-panel.ts';
import { dieboldMariano } from './metrics/diebold-mariano.ts';
import { renderLeaderboard } from './render-leaderboard.ts';
import { ScoringResults } from './results-schema.ts';
import { COMPARISON_RULES, scorePanel } from './score-panel.ts';
import type { ForecastRow, OriginRow } from './score-types.ts';

// Issue 16 point 3: a model may forecast any subset of (series, origin) pairs, whole paths 1…H. It is
// scored on exactly its points, the baselines on the same points, and ranked in every block where it has a
// path in each unit, on the paths all ranked models share (issue 51 item 7, docs/decisions/0059).
const H = 5;
const data = makeRandomWalkPanel({
  seed: 21,
  units: 2,
  seriesPerUnit: 5,
  originsPerSeries: 12,
  horizon: H,
  tail: 60,
});
const panel = buildEvaluationPanel(data.origins, data.targets);
const target = new Map(data.targets.map((t) => [`${t.series_id}|${t.origin}|${t.step}`, t.value]));
const yH = (o: OriginRow) => target.get(`${o.series_id}|${o.origin}|${H}`)!;

/** Paths y_o · (1 + lift) for every step of the given origins. */
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

// `few`: 2 series of unit Cat0 × origins 3…7 of each (10 paths), forecasting +1%.
const FEW_SERIES = ['u0s0', 'u0s1'];
const fewOrigins = FEW_SERIES.flatMap((id) => data.origins.filter((o) => o.series_id === id).slice(3, 8));
// `cat1`: every origin of every series of unit Cat1 (a unit covered fully), forecasting −0.5%.
const cat1Origins = data.origins.filter((o) => o.series_id.startsWith('u1'));
// `full`: every origin, forecasting a deterministic wobble.
const wobble = (o: OriginRow) => 0.004 * Math.sin(o.last_value);

const align = (r: ForecastRow[]) => alignForecasts(panel, forecastRowsToTable(r));
const [few] = align(rows('few', fewOrigins, () => 0.01));
const [cat1] = align(rows('cat1', cat1Origins, () => -0.005));
const [full] = align(rows('full', data.origins, wobble));
const results = scorePanel({ tasks: data.tasks, panel, models: [full, few, cat1] });
const alone = scorePanel({ tasks: data.tasks, panel, models: [full] });

const CAT0 = 'Intra-country / Cat0 / Detail0 / BD';
const CAT1 = 'Intra-country / Cat1 / Detail1 / BD';
const value = (r: ScoringResults['values'], model: string, unit: string, metric: string) =>
  r.find((v) => v.model === model && v.unit === unit && v.metric === metric);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('partial submissions', () => {
  it('marks what a model covers, and only then', () => {
    expect(full.covered).toBeNull();
    expect(few.covered).not.toBeNull();
    expect(few.covered!.reduce((a, b) => a + b, 0)).toBe(10);
    expect(ScoringResults.safeParse(results).success).toBe(true);
  });

  it('reports each model’s coverage of the task set (10 series × 12 origins × 5 steps = 600 points)', () => {
    const cov = (m: string) => results.models.find((x) => x.model === m)!.coverage;
    expect(results.comparison.task_set).toEqual({ series: 10, origins: 120, points: 600 });
    expect(cov('few')).toEqual({
      series: 2,
      origins: 10,
      points: 50,
      share: 50 / 600,
      units: 1,
      full_units: 0,
    });
    expect(cov('cat1')).toEqual({ series: 5, origins: 60, points: 300, share: 0.5, units: 1, full_units: 1 });
    for (const m of ['random_walk', 'drift', 'seasonal_naive', 'full'])
      expect(cov(m)).toEqual({ series: 10, origins: 120, points: 600, share: 1, units: 2, full_units: 2 });
    expect(results.comparison).toMatchObject(COMPARISON_RULES);
  });

  it('scores the partial model on its 10 paths and the baselines on the same 10 (hand-computed MAE)', () => {
    // Tycheon MAE in horizon-end log returns, per series over its origins, then the mean over the series.
    const r = (o: OriginRow) => Math.log(yH(o) / o.last_value);
    const perSeries = (f: (o: OriginRow) => number) =>
      mean(FEW_SERIES.map((id) => mean(fewOrigins.filter((o) => o.series_id === id).map(f))));
    const fewMae = perSeries((o) => Math.abs(Math.log(1.01) - r(o)));
    const rwMae = perSeries((o) => Math.abs(r(o)));
    const own = value(results.values, 'few', CAT0, 'tycheon.mae')!;
    expect(own.value).toBeCloseTo(fewMae, 12);
    expect(own.series).toBe(2);
    expect(own.partial).toBe(true);
    const block = results.same_points.find((p) => p.model === 'few')!;
    const rwSame = value(block.values, 'random_walk', CAT0, 'tycheon.mae')!;
    expect(rwSame.value).toBeCloseTo(rwMae, 12);
    expect(rwSame.series).toBe(2);
    // … which is not the random walk's value on the whole unit (5 series × 12 origins).
    const rwAll = value(results.values, 'random_walk', CAT0, 'tycheon.mae')!;
    const allCat0 = data.origins.filter((o) => o.series_id.startsWith('u0'));
    const rwAllByHand = mean(
      [0, 1, 2, 3, 4].map((k) =>
        mean(allCat0.filter((o) => o.series_id === `u0s${k}`).map((o) => Math.abs(r(o)))),
      ),
    );
    expect(rwAll.value).toBeCloseTo(rwAllByHand, 12);
    expect(Math.abs(rwAll.value! - rwSame.value!)).toBeGreaterThan(1e-4);
    // The partial model touches no other unit; its same-points block holds every baseline, nothing else.
    expect(results.values.filter((v) => v.model === 'few' && v.unit !== CAT0)).toEqual([]);
    expect([...new Set(block.values.map((v) => v.model))].sort()).toEqual([
      'arima',
      'drift',
      'garch',
      'random_walk',
      'seasonal_naive',
    ]);
  });

  it('tests the partial model against the random walk on its own 10 origins only', () => {
    const pooled = results.verdicts.rows.find((v) => v.model === 'few' && v.unit === '*')!;
    expect(pooled.partial).toBe(true);
    expect(pooled.n).toBe(10);
    // The same DM by hand: squared horizon-end log-return errors on the 10 paths, model vs random walk.
    const r = fewOrigins.map((o) => Math.log(yH(o) / o.last_value));
    const byHand = dieboldMariano(
      r.map((x) => (Math.log(1.01) - x) ** 2),
      r.map((x) => x ** 2),
      { horizon: 1 },
    );
    expect(pooled.squared_error!.statistic).toBeCloseTo(byHand.statistic, 10);
    expect(pooled.squared_error!.n).toBe(10);
    // Only the partial model's own rows are added; the baselines' verdicts stay on all origins.
    expect(
      results.verdicts.rows.filter((v) => v.partial).every((v) => v.model === 'few' || v.model === 'cat1'),
    ).toBe(true);
  });

  it('leaves every full-coverage model’s values and verdicts unchanged, and the blocks it does not enter', () => {
    const keep = (r: ScoringResults) => r.values.filter((v) => v.model !== 'few' && v.model !== 'cat1');
    expect(keep(results)).toEqual(alone.values);
    expect(results.verdicts.rows.filter((v) => !v.partial)).toEqual(alone.verdicts.rows);
    // Neither partial model has a path in both units: the overall block is the full models' alone.
    const { not_ranked, ...overall } = results.ranks.overall;
    const { not_ranked: none, ...aloneOverall } = alone.ranks.overall;
    expect(overall).toEqual(aloneOverall);
    expect(none).toEqual([]);
    expect(not_ranked).toEqual([
      { model: 'few', reason: "forecasts no path of 1 of the block's 2 unit(s)" },
      { model: 'cat1', reason: "forecasts no path of 1 of the block's 2 unit(s)" },
    ]);
    // cat1 covers Cat1 fully and competes there; Cat0's cells are the full model's and the baselines' alone.
    const inCat0 = (r: ScoringResults) => r.baselines_win.filter((w) => w.unit === CAT0);
    expect(inCat0(results).length).toBeGreaterThan(0);
    expect(inCat0(results)).toEqual(inCat0(alone));
  });

  it('ranks a model in every block where it has a path in each unit, on the paths all ranked models share', () => {
    const names = (b: ScoringResults['ranks']['overall']) => b.models.map((m) => m.model).sort();
    const baselines = ['arima', 'drift', 'garch', 'random_walk', 'seasonal_naive'];
    expect(names(results.ranks.overall)).toEqual([...baselines, 'full'].sort());
    // few has 10 of Cat0's 60 paths: Cat0 ranks it, and every model there on those 10 paths (50 of 300 points).
    expect(names(results.ranks.by_category.Cat0)).toEqual([...baselines, 'few', 'full'].sort());
    expect(results.ranks.by_category.Cat0.points).toEqual({ origins: 10, points: 50, share: 50 / 300 });
    expect(names(results.ranks.by_category.Cat1)).toEqual([...baselines, 'cat1', 'full'].sort());
    expect(results.ranks.by_category.Cat1.points).toEqual({ origins: 60, points: 300, share: 1 });
    // The Cat0 block on few's paths is what the same models get on a panel built from those paths only.
    const cut = buildEvaluationPanel(
      fewOrigins,
      data.targets.filter((t) =>
        fewOrigins.some((o) => o.series_id === t.series_id && o.origin === t.origin),
      ),
    );
    const onCut = (r: ForecastRow[]) => alignForecasts(cut, forecastRowsToTable(r))[0];
    const byHand = scorePanel({
      tasks: data.tasks.filter((t) => FEW_SERIES.includes(t.series_id)),
      panel: cut,
      models: [onCut(rows('full', fewOrigins, wobble)), onCut(rows('few', fewOrigins, () => 0.01))],
      options: { originStride: H },
    });
    const strip = (b: ScoringResults['ranks']['overall']) => ({ aspects: b.aspects, models: b.models });
    expect(strip(results.ranks.by_category.Cat0)).toEqual(strip(byHand.ranks.overall));
    // A fully covered unit gives the same values as on the whole task set: cat1's Cat1 values are those of a
    // full model forecasting the same there (and anything elsewhere).
    const [cat1Full] = align([
      ...rows('cat1', cat1Origins, () => -0.005),
      ...rows(
        'cat1',
        data.origins.filter((o) => o.series_id.startsWith('u0')),
        () => 0.02,
      ),
    ]);
    const asFull = scorePanel({ tasks: data.tasks, panel, models: [cat1Full] });
    const cat1Values = results.values.filter((v) => v.model === 'cat1');
    expect(cat1Values.length).toBeGreaterThan(10);
    expect(cat1Values.every((v) => v.partial === undefined)).toBe(true);
    expect(cat1Values).toEqual(asFull.values.filter((v) => v.model === 'cat1' && v.unit === CAT1));
    // On its own points the partial model is ranked with the baselines.
    const fewRanks = results.same_points.find((p) => p.model === 'few')!.ranks;
    expect(names(fewRanks)).toEqual([...baselines, 'few'].sort());
  });

  it('puts both in one leaderboard, with coverage and the comparison sets stated', () => {
    const md = renderLeaderboard(results);
    expect(md).toContain('## Coverage and comparison sets');
    expect(md).toContain('Task set: 10 series, 120 origins, 600 points.');
    expect(md).toMatch(/\| few \| 2 \| 10 \| 50 \| 8\.3% \| category: Cat0 \|/);
    // The breakdown names what it ranks by and on how many shared paths; who is left out of each block.
    expect(md).toMatch(
      /\| Cat0 \| finverse: rank aggregation of \d+ metric\(s\) \| 10 paths \(16\.7%\) \| [^|]+ \| [^|]+ \| cat1 \|/,
    );
    expect(md).toMatch(/\| cat1 \| 5 \| 60 \| 300 \| 50\.0% \| category: Cat1 \|/);
    expect(md).toMatch(/\| full \| 10 \| 120 \| 600 \| 100% \| all blocks \|/);
    expect(md).toContain(`- Ranks: ${escapeMarkdown(COMPARISON_RULES.ranks)}.`);
    expect(md).toContain('## Partial models, with the baselines on the same points');
    expect(md).toContain('### few');
    expect(md).toContain(
      '2 series, 10 origins, 50 points (8.3% of the task set); every value below is on these points only.',
    );
    const overall = md.slice(md.indexOf('## Overall'), md.indexOf('## Verdicts'));
    expect(overall).toContain('| full |');
    expect(overall).not.toContain('| few |');
    expect(overall).toContain("Not ranked here: few (forecasts no path of 1 of the block's 2 unit(s))");
    expect(md).toMatch(/\| few \(its origins\) \| 10 \|/);
    expect(md).toMatch(/- On few's own points a baseline leads \d+ headline/);
  });

  it('refuses a half-covered origin, naming it', () => {
    const broken = rows('few', fewOrigins, () => 0.01).filter(
      (r) => !(r.series_id === 'u0s1' && r.origin === fewOrigins[7].origin && r.step === 4),
    );
    const err = (() => {
      try {
        align(broken);
      } catch (e) {
        return e;
      }
    })() as InputError;
    expect(err).toBeInstanceOf(InputError);
    expect(err.code).toBe('FORECAST_MISSING_STEPS');
    expect(err.message).toBe(
      `forecasts: model few forecasts u0s1 @ ${fewOrigins[7].origin} but has no row for step 4 (1 of its 5 steps missing); forecast the whole path 1…5 of each origin you cover, or none of it`,
    );
    expect(err.context).toMatchObject({ series_id: 'u0s1', origin: fewOrigins[7].origin, step: 4 });
  });
});
