import type {
  BaselineWinGroup,
  HorizonMetricRow,
  RankPositionRow,
  VerdictCell,
} from './aggregate-scoring.ts';
import { CHART_CONFIG, type Spec, WIDTH } from './chart-base.ts';

export const VERDICT_COLORS = {
  beats: '#2e8b57',
  indistinguishable: '#c9ced6',
  worse: '#c0392b',
  'n/a': '#ffffff',
} as const;

/** FinVerse positions: a cell per (breakdown, model), its position written in it (1 = best). */
export function ranksSpec(rows: RankPositionRow[]): Spec {
  const groups = [...new Set(rows.map((r) => r.group))];
  return {
    config: CHART_CONFIG,
    width: { step: 64 },
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
  const domain = Object.keys(VERDICT_COLORS);
  return {
    config: CHART_CONFIG,
    width: { step: 150 },
    height: { step: 20 },
    data: { values: cells },
    encoding: {
      x: { field: 'model', type: 'nominal', title: 'model', axis: { orient: 'top', labelAngle: 0 } },
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
      { mark: { type: 'text', fontSize: 10 }, encoding: { text: { field: 'text', type: 'nominal' } } },
    ],
  } as Spec;
}

/** CRPS, coverage and QLIKE per model against the horizon (one panel per metric, own y scale). */
export function horizonMetricsSpec(rows: HorizonMetricRow[]): Spec {
  const labels = [...new Set(rows.map((r) => r.horizon_label))];
  return {
    config: CHART_CONFIG,
    data: { values: rows },
    facet: { column: { field: 'metric', type: 'nominal', title: null } },
    spec: {
      width: 220,
      height: 200,
      mark: { type: 'line', point: true },
      encoding: {
        x: {
          field: 'horizon_label',
          type: 'ordinal',
          sort: labels,
          title: 'frequency · horizon',
          axis: { labelAngle: 0 },
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
