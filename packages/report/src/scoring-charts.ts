import type {
  BaselineWinGroup,
  HorizonMetricRow,
  RankPositionRow,
  VerdictCell,
} from './aggregate-scoring.ts';
import { CHART_CONFIG, labelWidth, PAGE_CHART_WIDTH, type Spec, WIDTH } from './chart-base.ts';

export const VERDICT_COLORS = {
  beats: '#2e8b57',
  indistinguishable: '#c9ced6',
  worse: '#c0392b',
  'n/a': '#ffffff',
} as const;

/** FinVerse positions: a cell per (breakdown, model), its position written in it (1 = best). */
export function ranksSpec(rows: RankPositionRow[]): Spec {
  const groups = [...new Set(rows.map((r) => r.group))];
  const models = [...new Set(rows.map((r) => r.model))];
  // 64 px per group where the page has room, narrower columns where it has not: the whole chart (model
  // labels and legend included, autosize fit-x) is at most PAGE_CHART_WIDTH.
  const natural = 64 * groups.length + labelWidth(models) + 120;
  return {
    config: CHART_CONFIG,
    width: Math.min(natural, PAGE_CHART_WIDTH),
    autosize: { type: 'fit-x', contains: 'padding' },
    height: { step: 24 },
    data: { values: rows },
    encoding: {
      x: {
        field: 'group',
        type: 'nominal',
        sort: groups,
        title: null,
        axis: { labelAngle: -40, orient: 'top' },
      },
      y: { field: 'model', type: 'nominal', title: 'model' },
    },
    layer: [
      {
        mark: 'rect',
        encoding: {
          color: {
            field: 'position',
            type: 'quantitative',
            title: 'position',
            scale: { scheme: 'blues', reverse: true },
            legend: { orient: 'top', direction: 'horizontal' },
          },
          tooltip: [
            { field: 'group' },
            { field: 'model' },
            { field: 'position' },
            { field: 'overall', title: 'Σ aspect ranks' },
          ],
        },
      },
      {
        mark: { type: 'text', fontSize: 11 },
        encoding: { text: { field: 'position', type: 'quantitative' } },
      },
    ],
  } as Spec;
}

/** Model × unit verdicts against the random walk; each cell shows p(SE better) | p(CRPS better). */
export function verdictGridSpec(cells: VerdictCell[]): Spec {
  const units = [...new Set(cells.map((c) => c.unit))];
  const models = [...new Set(cells.map((c) => c.model))];
  const domain = Object.keys(VERDICT_COLORS);
  // The legend goes above the grid and the unit labels are capped, so the grid gets the page's width: 150 px
  // per model where there is room, less where there is not (autosize fit-x keeps the whole chart within
  // PAGE_CHART_WIDTH). A cell too narrow for its p-values shows its colour only (hover for the values).
  const labels = labelWidth(units, 420);
  const width = Math.min(150 * models.length + labels + 20, PAGE_CHART_WIDTH);
  const textFits = (width - labels - 20) / models.length >= 84;
  return {
    config: CHART_CONFIG,
    width,
    autosize: { type: 'fit-x', contains: 'padding' },
    height: { step: 20 },
    data: { values: cells },
    encoding: {
      x: {
        field: 'model',
        type: 'nominal',
        title: 'model',
        axis: { orient: 'top', labelAngle: textFits ? 0 : -30, labelLimit: 150 },
      },
      y: { field: 'unit', type: 'nominal', sort: units, title: null, axis: { labelLimit: 420 } },
    },
    layer: [
      {
        mark: { type: 'rect', stroke: '#ffffff', strokeWidth: 1 },
        encoding: {
          color: {
            field: 'verdict',
            type: 'nominal',
            title: 'vs random walk',
            scale: { domain, range: domain.map((d) => VERDICT_COLORS[d as keyof typeof VERDICT_COLORS]) },
            legend: { orient: 'top', direction: 'horizontal' },
          },
          tooltip: [
            { field: 'model' },
            { field: 'unit' },
            { field: 'verdict' },
            { field: 'n', title: 'origins' },
            { field: 'p_se', title: 'p (SE better)', format: '.2g' },
            { field: 'p_crps', title: 'p (CRPS better)', format: '.2g' },
            { field: 'p_se_worse', title: 'p (SE worse)', format: '.2g' },
            { field: 'p_crps_worse', title: 'p (CRPS worse)', format: '.2g' },
          ],
        },
      },
      ...(textFits
        ? [{ mark: { type: 'text', fontSize: 10 }, encoding: { text: { field: 'text', type: 'nominal' } } }]
        : []),
    ],
  } as Spec;
}

/** Panels per row of the horizon figure: three of 250 px, each with its own y axis, fit PAGE_CHART_WIDTH. */
export const HORIZON_COLUMNS = 3;

/**
 * CRPS, coverage and QLIKE per model against the horizon: one panel per metric with its own y scale,
 * wrapped HORIZON_COLUMNS to a row, the model legend under the panels (not beside them, off the page).
 */
export function horizonMetricsSpec(rows: HorizonMetricRow[]): Spec {
  const labels = [...new Set(rows.map((r) => r.horizon_label))];
  const metrics = [...new Set(rows.map((r) => r.metric))];
  return {
    config: { ...CHART_CONFIG, legend: { ...CHART_CONFIG.legend, orient: 'bottom', columns: 4 } },
    data: { values: rows },
    facet: { field: 'metric', type: 'nominal', title: null, sort: metrics },
    columns: HORIZON_COLUMNS,
    spec: {
      width: Math.floor((PAGE_CHART_WIDTH - 40) / HORIZON_COLUMNS) - 110,
      height: 200,
      mark: { type: 'line', point: true },
      encoding: {
        x: {
          field: 'horizon_label',
          type: 'ordinal',
          sort: labels,
          title: 'frequency · horizon',
          axis: { labelAngle: -30 },
        },
        y: { field: 'value', type: 'quantitative', title: 'mean over units', scale: { zero: false } },
        color: { field: 'model', type: 'nominal', title: 'model' },
        tooltip: [
          { field: 'model' },
          { field: 'metric' },
          { field: 'horizon_label', title: 'horizon' },
          { field: 'value', format: '.4g' },
          { field: 'units' },
        ],
      },
    },
    resolve: { scale: { y: 'independent' } },
  } as Spec;
}

/** Headline cells led by a baseline, per category and leading baseline(s). */
export function baselinesWinSpec(groups: BaselineWinGroup[]): Spec {
  const values = groups.flatMap((g) =>
    g.byLeader.map((l) => ({ category: g.category, leader: l.leader, cells: l.cells })),
  );
  return {
    config: CHART_CONFIG,
    width: WIDTH - 200,
    height: { step: 22 },
    data: { values },
    mark: 'bar',
    encoding: {
      y: { field: 'category', type: 'nominal', sort: groups.map((g) => g.category), title: 'category' },
      x: {
        field: 'cells',
        type: 'quantitative',
        title: '(unit, metric) cells led by a baseline',
        stack: 'zero',
      },
      color: { field: 'leader', type: 'nominal', title: 'leader(s)' },
      tooltip: [{ field: 'category' }, { field: 'leader' }, { field: 'cells' }],
    },
  };
}
