import type { ScoringResults } from '@asof/scoring';
import { describe, expect, it } from 'vitest';
import {
  baselinesWinByCategory,
  horizonMetrics,
  POOLED_UNIT,
  parseUnit,
  verdictCells,
} from './aggregate-scoring.ts';
import { addHoverTitles, renderChartSvg } from './render-chart-svg.ts';
import { escapeHtml, formatCell, renderReportHtml } from './render-report-html.ts';
import { verdictGridSpec } from './scoring-charts.ts';
import { splitInstants } from './split-sections.ts';
import { coverageSpec, publicationLagSpec } from './universe-charts.ts';

const U1 = 'Country / Macro / Gdp / Q';
const U2 = 'Individual / Equity / Close / BD';
const dm = (p: number) => ({
  statistic: -2,
  p_model_better: p,
  p_model_worse: 1 - p,
  mean_differential: -1,
  n: 9,
  horizon: 1,
});

/** A hand-made results document with the fields the scoring sections read. */
function results(): ScoringResults {
  const value = (model: string, unit: string, metric: string, v: number) => ({
    model,
    unit,
    family: 'tycheon' as const,
    aspect: 'tycheon',
    metric,
    direction: 'lower' as const,
    value: v,
    series: 1,
  });
  return {
    verdicts: {
      status: 'ok',
      rows: [
        {
          model: 'm',
          unit: U1,
          n: 9,
          squared_error: dm(0.001),
          crps: dm(0.0002),
          crps_kind: 'point',
          crps_approximate: false,
          verdict: 'beats',
        },
        {
          model: 'm',
          unit: '*',
          n: 18,
          squared_error: dm(0.5),
          crps: dm(0.4),
          crps_kind: 'point',
          crps_approximate: false,
          verdict: 'indistinguishable',
        },
        {
          model: 'm',
          unit: U2,
          n: 9,
          squared_error: null,
          crps: null,
          crps_kind: 'point',
          crps_approximate: false,
          verdict: null,
        },
      ],
    },
    values: [
      value('m', U1, 'tycheon.crps', 1),
      value('m', 'Country / Macro / Cpi / Q', 'tycheon.crps', 3),
      value('m', U2, 'tycheon.crps', 5),
      value('m', U2, 'tycheon.mae', 7),
      value('random_walk', U2, 'tycheon.qlike', 0.5),
    ],
    baselines_win: [
      {
        unit: U1,
        metric: 'HR',
        leaders: ['drift'],
        value: 0.6,
        best_submitted: 'm',
        best_submitted_value: 0.5,
      },
      {
        unit: U2,
        metric: 'HR',
        leaders: ['drift', 'random_walk'],
        value: 0.6,
        best_submitted: null,
        best_submitted_value: null,
      },
      {
        unit: U2,
        metric: 'IC',
        leaders: ['drift'],
        value: 0.1,
        best_submitted: null,
        best_submitted_value: null,
      },
    ],
  } as unknown as ScoringResults;
}

describe('scoring aggregates', () => {
  it('parse unit keys, lay out the verdict grid (pooled first) and group baseline wins by category', () => {
    expect(parseUnit(U1)).toEqual({ scope: 'Country', category: 'Macro', detail: 'Gdp', frequency: 'Q' });
    const cells = verdictCells(results());
    expect(cells.map((c) => [c.unit, c.verdict, c.text])).toEqual([
      [POOLED_UNIT, 'indistinguishable', '0.500 | 0.400'],
      [U1, 'beats', '0.001 | 2e-4'],
      [U2, 'n/a', 'n/a | n/a'],
    ]);
    const groups = baselinesWinByCategory(results());
    expect(groups.map((g) => [g.category, g.cells, g.byLeader])).toEqual([
      [
        'Equity',
        2,
        [
          { leader: 'drift', cells: 1 },
          { leader: 'drift = random_walk', cells: 1 },
        ],
      ],
      ['Macro', 1, [{ leader: 'drift', cells: 1 }]],
    ]);
  });

  it('averages CRPS / QLIKE over the units of each frequency at its prediction length', () => {
    const rows = horizonMetrics(results(), { Q: 4, BD: 260 });
    expect(rows.map((r) => [r.model, r.metric, r.horizon_label, r.value, r.units])).toEqual([
      ['m', 'crps', 'BD · H 260', 5, 1],
      ['m', 'crps', 'Q · H 4', 2, 2],
      ['random_walk', 'qlike', 'BD · H 260', 0.5, 1],
    ]);
  });
});

describe('chart specs render to SVG with one data mark per row', () => {
  it('coverage: a bar per (unit, frequency), tooltips as hover titles', async () => {
    const rows = [
      {
        scope: 'S',
        category: 'C',
        detail_category: 'D1',
        frequency: 'M',
        series: 3,
        observations: 30,
        eval_targets: 1,
        tasks: 2,
      },
      {
        scope: 'S',
        category: 'C',
        detail_category: 'D2',
        frequency: 'Q',
        series: 1,
        observations: 4,
        eval_targets: 0,
        tasks: 0,
      },
    ];
    const r = await renderChartSvg('coverage', coverageSpec(rows));
    expect(r.marks).toBe(2);
    expect(r.svg).toMatch(
      /<title>[^<]*unit: S \/ C \/ D1; observations: 30; eval targets: 1; tasks: 2<\/title>/,
    );
  });

  it('verdict grid: a cell and a text per (model, unit)', async () => {
    const r = await renderChartSvg('verdicts', verdictGridSpec(verdictCells(results())));
    expect(r.marks).toBe(6);
    expect(r.svg).toContain('0.001 | 2e-4');
  });

  it('refuses a chart that draws no data mark, and a spec Vega-Lite cannot compile', async () => {
    await expect(renderChartSvg('lag', publicationLagSpec([]))).rejects.toThrow(
      /chart 'lag' drew no data marks/,
    );
    await expect(
      renderChartSvg('bad', { data: { values: [{ a: 1 }] }, mark: 'nonsense' } as never),
    ).rejects.toThrow(/chart 'bad' failed to render/);
  });

  it('escapes free text in the page and in the SVG', async () => {
    const evil = '<script>alert(1)</script>&"';
    const r = await renderChartSvg(
      'x',
      coverageSpec([
        {
          scope: evil,
          category: 'C',
          detail_category: 'D',
          frequency: 'M',
          series: 1,
          observations: 1,
          eval_targets: 0,
          tasks: 0,
        },
      ]),
    );
    const html = renderReportHtml({
      title: evil,
      subtitle: evil,
      sections: [
        {
          id: 's',
          title: evil,
          blocks: [
            { kind: 'chart', id: 'x', title: evil, svg: r.svg, marks: r.marks },
            { kind: 'table', columns: [evil], rows: [[evil]] },
          ],
        },
      ],
    });
    expect(html).not.toContain('<script>');
    expect(html).toContain(escapeHtml(evil));
    expect(addHoverTitles('<path aria-label="a &amp; b" role="graphics-symbol" d="M0"/>')).toBe(
      '<path aria-label="a &amp; b" role="graphics-symbol" d="M0"><title>a &amp; b</title></path>',
    );
  });

  it('formats cells and key instants', () => {
    expect([formatCell(1234567), formatCell(0.123456), formatCell(0.00001234), formatCell(null)]).toEqual([
      '1,234,567',
      '0.1235',
      '1.23e-5',
      '–',
    ]);
    expect(
      splitInstants({
        train_cutoff: '2020-01-01T00:00:00.000000Z',
        eval_start: '2020-01-01',
        run_date: '2022-06-30',
      }),
    ).toEqual([
      { label: 'train cutoff = eval start', at: Date.parse('2020-01-01T00:00:00Z') },
      { label: 'run date', at: Date.parse('2022-06-30T00:00:00Z') },
    ]);
  });
});
