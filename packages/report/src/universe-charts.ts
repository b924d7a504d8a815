import type {
  ActiveSeriesRow,
  CoverageRow,
  LagBinRow,
  PatternMixRow,
  RevisionBinRow,
  SegmentStatisticRow,
  VintageCountRow,
} from './aggregate-universe.ts';
import { LAG_BINS, REVISION_BINS } from './aggregate-universe.ts';
import { CHART_CONFIG, FREQUENCY_ORDER, type Spec, timeX, WIDTH } from './chart-base.ts';

/** Series per scope → category → detail category, coloured by frequency (tooltip: all four counts). */
export function coverageSpec(rows: CoverageRow[]): Spec {
  const values = rows.map((r) => ({
    ...r,
    unit: `${r.scope} / ${r.category} / ${r.detail_category}`,
  }));
  const units = [...new Set(values.map((v) => v.unit))];
  return {
    config: CHART_CONFIG,
    width: WIDTH - 380,
    height: { step: 14 },
    data: { values },
    mark: 'bar',
    encoding: {
      y: {
        field: 'unit',
        type: 'nominal',
        title: 'scope / category / detail category',
        sort: units,
        axis: { labelLimit: 400 },
      },
      x: { field: 'series', type: 'quantitative', title: 'series', stack: 'zero' },
      color: { field: 'frequency', type: 'nominal', sort: FREQUENCY_ORDER, title: 'frequency' },
      tooltip: [
        { field: 'unit', title: 'unit' },
        { field: 'frequency' },
        { field: 'series', format: ',' },
        { field: 'observations', format: ',' },
        { field: 'eval_targets', title: 'eval targets', format: ',' },
        { field: 'tasks', format: ',' },
      ],
    },
  };
}

/** Active series per month and category (from each series' first to last timestamp). */
export function activeSeriesSpec(rows: ActiveSeriesRow[]): Spec {
  return {
    config: CHART_CONFIG,
    width: WIDTH,
    height: 240,
    data: { values: rows },
    mark: { type: 'line', interpolate: 'step-after' },
    encoding: {
      x: timeX('month', 'month'),
      y: { field: 'series', type: 'quantitative', title: 'active series' },
      color: { field: 'category', type: 'nominal', title: 'category' },
      tooltip: [
        { field: 'category' },
        { field: 'month', type: 'temporal', format: '%Y-%m', formatType: 'utc' },
        { field: 'series' },
      ],
    },
  };
}

/** Share of first releases per publication-lag bin, one bar group per source · basis. */
export function publicationLagSpec(rows: LagBinRow[]): Spec {
  const values = rows.map((r) => ({ ...r, group: `${r.source} · ${r.basis}`, lag: LAG_BINS[r.bin] }));
  return {
    config: CHART_CONFIG,
    width: WIDTH,
    height: 240,
    data: { values },
    mark: 'bar',
    encoding: {
      x: {
        field: 'lag',
        type: 'ordinal',
        sort: [...LAG_BINS],
        title: 'publication lag (available_at − period end)',
        axis: { labelAngle: 0 },
      },
      xOffset: { field: 'group', type: 'nominal' },
      y: { field: 'share', type: 'quantitative', title: 'share of first releases', axis: { format: '%' } },
      color: { field: 'group', type: 'nominal', title: 'source · basis' },
      tooltip: [
        { field: 'group', title: 'source · basis' },
        { field: 'lag' },
        { field: 'releases', format: ',' },
        { field: 'share', format: '.1%' },
      ],
    },
  };
}

/** Periods per number of vintages and source (log scale: one-vintage periods dominate). */
export function vintageCountsSpec(rows: VintageCountRow[]): Spec {
  const values = rows.map((r) => ({ ...r, label: r.vintages >= 10 ? '10+' : String(r.vintages) }));
  const labels = [...new Set(values.map((v) => v.label))].sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
  return {
    config: CHART_CONFIG,
    width: WIDTH,
    height: 220,
    data: { values },
    mark: 'bar',
    encoding: {
      x: {
        field: 'label',
        type: 'ordinal',
        sort: labels,
        title: 'vintages of a period',
        axis: { labelAngle: 0 },
      },
      xOffset: { field: 'source', type: 'nominal' },
      y: {
        aggregate: 'sum',
        field: 'periods',
        type: 'quantitative',
        title: 'periods',
        scale: { type: 'log' },
      },
      color: { field: 'source', type: 'nominal', title: 'source' },
      tooltip: [
        { field: 'source' },
        { field: 'label', title: 'vintages' },
        { aggregate: 'sum', field: 'periods', title: 'periods', format: ',' },
      ],
    },
  };
}

/** Revised periods per source by how far the latest value moved from the first release. */
export function revisionSizesSpec(rows: RevisionBinRow[]): Spec {
  const values = rows.map((r) => ({ ...r, move: REVISION_BINS[r.bin] }));
  return {
    config: CHART_CONFIG,
    width: WIDTH,
    height: 220,
    data: { values },
    mark: 'bar',
    encoding: {
      x: {
        field: 'move',
        type: 'ordinal',
        sort: [...REVISION_BINS],
        title: '|latest − first release| / |first release|',
        axis: { labelAngle: 0 },
      },
      xOffset: { field: 'source', type: 'nominal' },
      y: { field: 'periods', type: 'quantitative', title: 'revised periods' },
      color: { field: 'source', type: 'nominal', title: 'source' },
      tooltip: [{ field: 'source' }, { field: 'move', title: 'move' }, { field: 'periods', format: ',' }],
    },
  };
}

/** Movement-pattern mix of the segments per category · frequency, as shares. */
export function patternMixSpec(rows: PatternMixRow[]): Spec {
  const values = rows.map((r) => ({ ...r, group: `${r.category} · ${r.frequency}` }));
  return {
    config: CHART_CONFIG,
    width: WIDTH - 200,
    height: { step: 20 },
    data: { values },
    mark: 'bar',
    encoding: {
      y: { field: 'group', type: 'nominal', title: 'category · frequency' },
      x: {
        field: 'segments',
        type: 'quantitative',
        stack: 'normalize',
        title: 'share of segments',
        axis: { format: '%' },
      },
      color: {
        field: 'label',
        type: 'nominal',
        title: 'pattern',
        sort: ['uptrend', 'downtrend', 'volatile', 'extreme', 'unlabelled'],
      },
      tooltip: [
        { field: 'group', title: 'category · frequency' },
        { field: 'label' },
        { field: 'segments', format: ',' },
      ],
    },
  };
}

const STATISTIC_TITLES: Record<string, string> = {
  adf_stat: 'ADF statistic',
  acf1: 'lag-1 autocorrelation',
  forecastability: 'forecastability',
};

/** Box plots from precomputed quantiles (5–95 % whiskers, 25–75 % box, median tick), one panel per statistic. */
export function segmentStatisticsSpec(rows: SegmentStatisticRow[]): Spec {
  const values = rows.map((r) => ({
    group: `${r.category} · ${r.frequency}`,
    statistic: STATISTIC_TITLES[r.statistic] ?? r.statistic,
    segments: r.segments,
    p05: r.q[0],
    p25: r.q[1],
    p50: r.q[2],
    p75: r.q[3],
    p95: r.q[4],
  }));
  const tooltip = [
    { field: 'group', title: 'category · frequency' },
    { field: 'statistic' },
    { field: 'segments', format: ',' },
    { field: 'p05', title: '5 %', format: '.3f' },
    { field: 'p25', title: '25 %', format: '.3f' },
    { field: 'p50', title: 'median', format: '.3f' },
    { field: 'p75', title: '75 %', format: '.3f' },
    { field: 'p95', title: '95 %', format: '.3f' },
  ];
  return {
    config: CHART_CONFIG,
    data: { values },
    facet: {
      column: {
        field: 'statistic',
        type: 'nominal',
        title: null,
        sort: Object.values(STATISTIC_TITLES),
      },
    },
    spec: {
      width: 190,
      height: { step: 18 },
      encoding: { y: { field: 'group', type: 'nominal', title: 'category · frequency' } },
      layer: [
        {
          mark: { type: 'rule', color: '#555' },
          encoding: {
            x: { field: 'p05', type: 'quantitative', title: null, scale: { zero: false } },
            x2: { field: 'p95' },
          },
        },
        {
          mark: { type: 'bar', size: 11, color: '#7aa6d0' },
          encoding: { x: { field: 'p25', type: 'quantitative' }, x2: { field: 'p75' }, tooltip },
        },
        {
          mark: { type: 'tick', color: '#1f3b57', thickness: 2, size: 13 },
          encoding: { x: { field: 'p50', type: 'quantitative' }, tooltip },
        },
      ],
    },
    resolve: { scale: { x: 'independent' } },
  };
}
