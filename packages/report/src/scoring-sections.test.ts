import {
  alignForecasts,
  buildEvaluationPanel,
  forecastRowsToTable,
  makeRandomWalkPanel,
  type OriginRow,
  type RunRecord,
  renderLeaderboard,
  type ScoringResults,
  type ScoringWindow,
  scorePanel,
} from '@asof/scoring';
import { describe, expect, it } from 'vitest';
import {
  type HorizonMetricRow,
  POOLED_UNIT,
  type RankPositionRow,
  type VerdictCell,
} from './aggregate-scoring.ts';
import { PAGE_CHART_WIDTH } from './chart-base.ts';
import { fitPageWidth, renderChartSvg } from './render-chart-svg.ts';
import { horizonMetricsSpec, ranksSpec, verdictGridSpec } from './scoring-charts.ts';
import { scoringSections } from './scoring-sections.ts';

// Issue 51 item 7: the report shows every section leaderboard.md has (same headings, same order), and its
// scoring charts fit a 1280-px page at the sizes a real score gives them.
const headings = (md: string) => [...md.matchAll(/^## (.+)$/gm)].map((m) => m[1]);

const data = makeRandomWalkPanel({ seed: 9, units: 2, seriesPerUnit: 3, originsPerSeries: 24 });
const count = new Map<string, number>();
const labelled: OriginRow[] = data.origins.map((o) => {
  const j = count.get(o.series_id) ?? 0;
  count.set(o.series_id, j + 1);
  return { ...o, window: (j < 12 ? 'T1' : 'T2') as ScoringWindow };
});

function score(origins: OriginRow[], partial: boolean): ScoringResults {
  const panel = buildEvaluationPanel(origins, data.targets);
  const rows = (model: string, shift: number) =>
    data.targets.map((t) => ({ ...t, model, value: t.value + shift }));
  const models = [alignForecasts(panel, forecastRowsToTable(rows('full', 0.1)))[0]];
  if (partial) {
    const some = rows('some', -0.1).filter((r) => r.series_id !== data.targets[0].series_id);
    models.push(alignForecasts(panel, forecastRowsToTable(some))[0]);
  }
  return scorePanel({ tasks: data.tasks, panel, models });
}

const run: RunRecord = {
  model: 'full',
  protocol_version: 1,
  command: ['python3', 'model.py'],
  files: [],
  split_dataset_id: 'b'.repeat(64),
  runner: { name: 'asof-runner', version: '0' },
  model_reported: { name: null, version: null },
  forecast_kind: 'point',
  fit: { series: 6, rows: 100 },
  guard: { requests: 1, rows: 1 },
  pairs: { asked: 10, forecast: 9, skipped: 1 },
  batches: 1,
  runtime: {
    started_at: '2026-12-05T00:00:00Z',
    seconds: 1,
    model_seconds: 1,
    node: 'v20',
    platform: 'linux',
  },
};

describe('scoringSections: the leaderboard’s sections', () => {
  it('has a section with the same heading, in the same order, for every section of leaderboard.md', async () => {
    for (const results of [score(data.origins, false), score(labelled, true)]) {
      const sections = await scoringSections(results, 'results.json', {});
      const shared = sections.filter((s) => s.id !== 'scoring-run' && s.id !== 'horizons');
      expect(shared.map((s) => s.title)).toEqual(headings(renderLeaderboard(results)));
    }
  });

  it('shows the partial-model, model-run, IC, window and memorisation-gap sections when the results have them', async () => {
    const results = score(labelled, true);
    results.dataset_warnings = [{ code: 'SYNTHETIC', message: 'made up' }];
    results.runs = [run];
    const sections = await scoringSections(results, 'results.json', {});
    expect(sections.map((s) => s.id)).toEqual([
      'scoring-run',
      'data-warnings',
      'coverage',
      'runs',
      'baseline-fits',
      'overall',
      'verdicts',
      'horizons',
      'ic',
      'partial',
      'windows',
      'memorisation-gap',
      'breakdowns',
      'baselines-win',
    ]);
    expect(sections.map((s) => s.title)).toEqual(
      expect.arrayContaining(headings(renderLeaderboard(results))),
    );
    const byId = new Map(sections.map((s) => [s.id, s]));
    const runs = byId.get('runs')!.blocks[0];
    expect(runs.kind === 'table' && runs.rows[0].slice(0, 2)).toEqual(['full', '9 of 10 pairs (1 skipped)']);
    const ic = byId.get('ic')!.blocks[0];
    expect(ic.kind === 'table' && ic.rows.map((r) => r[0])).toEqual(
      expect.arrayContaining(['full', 'random_walk']),
    );
    const partial = byId.get('partial')!.blocks;
    expect(partial[0]).toMatchObject({
      kind: 'text',
      text: expect.stringMatching(/^some: 5 series, 120 origins/),
    });
  });
});

describe('scoring charts fit a 1280-px page', () => {
  const models = [
    'drift',
    'seasonal_naive',
    'arima',
    'garch',
    'my_model_v2',
    'another_model',
    'copy_rw',
    'x',
  ];
  const units = Array.from(
    { length: 30 },
    (_, i) => `Individual / Equity / Earnings per share, diluted (${i}) / ${['BD', 'M', 'Q'][i % 3]}`,
  );

  it('verdict grid: 8 models × 31 units with long unit labels, legend included', async () => {
    const cells: VerdictCell[] = [POOLED_UNIT, ...units].flatMap((unit) =>
      models.map((model, k) => ({
        model,
        unit,
        verdict: (['beats', 'indistinguishable', 'worse', 'n/a'] as const)[k % 4],
        n: 10,
        p_se: 0.5,
        p_crps: 0.5,
        p_se_worse: 0.5,
        p_crps_worse: 0.5,
        text: '0.500 | 0.500',
      })),
    );
    const r = await renderChartSvg('verdicts', verdictGridSpec(cells));
    expect(r.scaled).toBe(false);
    expect(r.width).toBeLessThanOrEqual(PAGE_CHART_WIDTH);
    const few = await renderChartSvg('verdicts', verdictGridSpec(cells.filter((c) => c.model === 'arima')));
    expect(few.width).toBeLessThan(700);
    expect(few.svg).toContain('0.500 | 0.500');
  });

  it('metrics by horizon: 7 metric panels wrap in rows, the model legend below them', async () => {
    const metrics = ['crps', 'crps*', 'qlike', 'coverage_50', 'coverage_80', 'coverage_90', 'coverage_95'];
    const rows: HorizonMetricRow[] = metrics.flatMap((metric) =>
      models.flatMap((model) =>
        ['BD · H 20', 'M · H 6', 'Q · H 4'].map((horizon_label, k) => ({
          model,
          metric,
          frequency: ['BD', 'M', 'Q'][k],
          horizon: [20, 6, 4][k],
          horizon_label,
          value: k + 1,
          units: 2,
        })),
      ),
    );
    const r = await renderChartSvg('horizon-metrics', horizonMetricsSpec(rows));
    expect(r.scaled).toBe(false);
    expect(r.width).toBeLessThanOrEqual(PAGE_CHART_WIDTH);
    expect(r.marks).toBeGreaterThanOrEqual(metrics.length * models.length);
  });

  it('ranks: 40 breakdown groups × 8 models', async () => {
    const rows: RankPositionRow[] = Array.from({ length: 40 }, (_, g) => `category: group ${g}`).flatMap(
      (group) => models.map((model, k) => ({ group, model, position: k + 1, overall: k })),
    );
    const r = await renderChartSvg('ranks', ranksSpec(rows));
    expect(r.scaled).toBe(false);
    expect(r.width).toBeLessThanOrEqual(PAGE_CHART_WIDTH);
  });

  it('a chart wider than the page anyway is drawn scaled to PAGE_CHART_WIDTH, its viewBox whole', () => {
    const svg = '<svg xmlns="x" class="marks" width="2200" height="400" viewBox="0 0 2200 400"><rect/></svg>';
    const r = fitPageWidth(svg);
    expect(r).toEqual({
      svg: `<svg xmlns="x" class="marks" width="${PAGE_CHART_WIDTH}" height="200" viewBox="0 0 2200 400"><rect/></svg>`,
      width: 2200,
      scaled: true,
    });
    expect(fitPageWidth(svg.replace(/2200/g, '900')).scaled).toBe(false);
  });
});
