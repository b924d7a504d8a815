import type { Duck } from '@asof/duck';
import { CHART_CONFIG, isoDay, type Spec } from './chart-base.ts';
import { chartBlock } from './chart-block.ts';
import type { Block, Section } from './render-report-html.ts';
import { ensureInputTable, runReportModel } from './run-report-model.ts';

interface StatisticRow {
  pattern: string;
  datasets: number;
  series: number;
  adf_stat: number;
  acf1: number;
  forecastability: number;
  split: string;
}
interface DatasetRow {
  dataset: string;
  pattern: string;
  frequency: string;
  k: number;
  length: number;
  members: number;
  train_start: number;
  train_end: number;
  valid_start: number;
  valid_end: number;
  test_start: number;
  test_end: number;
}

const PATTERNS = ['uptrend', 'downtrend', 'volatile', 'extreme'];

/** Mean ADF, lag-1 autocorrelation and forecastability per pattern (one panel each). */
export function fintsbStatisticsSpec(rows: StatisticRow[]): Spec {
  const values = rows.flatMap((r) => [
    { pattern: r.pattern, statistic: 'ADF statistic', value: r.adf_stat },
    { pattern: r.pattern, statistic: 'lag-1 autocorrelation', value: r.acf1 },
    { pattern: r.pattern, statistic: 'forecastability', value: r.forecastability },
  ]);
  return {
    config: CHART_CONFIG,
    data: { values },
    facet: { column: { field: 'statistic', type: 'nominal', title: null } },
    spec: {
      width: 180,
      height: 160,
      mark: 'bar',
      encoding: {
        x: { field: 'pattern', type: 'nominal', sort: PATTERNS, title: null, axis: { labelAngle: 0 } },
        y: { field: 'value', type: 'quantitative', title: 'mean over the series' },
        color: { field: 'pattern', type: 'nominal', sort: PATTERNS, legend: null },
        tooltip: [{ field: 'pattern' }, { field: 'statistic' }, { field: 'value', format: '.3f' }],
      },
    },
    resolve: { scale: { y: 'independent' } },
  };
}

/** A FinTSB export: its per-pattern statistics and its datasets' windows. */
export async function fintsbSections(duck: Duck): Promise<Section[]> {
  await ensureInputTable(
    duck,
    'fintsb_statistics',
    'pattern VARCHAR, datasets INTEGER, series INTEGER, adf_stat DOUBLE, acf1 DOUBLE, forecastability DOUBLE, split VARCHAR',
  );
  await ensureInputTable(duck, 'fintsb_members', 'dataset VARCHAR');
  await ensureInputTable(
    duck,
    'fintsb_datasets',
    `dataset VARCHAR, pattern VARCHAR, frequency VARCHAR, k INTEGER, length INTEGER, train_start TIMESTAMPTZ,
     train_end TIMESTAMPTZ, valid_start TIMESTAMPTZ, valid_end TIMESTAMPTZ, test_start TIMESTAMPTZ, test_end TIMESTAMPTZ`,
  );
  const stats = await runReportModel<StatisticRow>(duck, 'fintsb_statistics');
  const datasets = await runReportModel<DatasetRow>(duck, 'fintsb_datasets');
  const blocks: Block[] = [];
  if (stats.length) {
    blocks.push(
      await chartBlock(
        'fintsb-statistics',
        'Per pattern: non-stationarity, autocorrelation, forecastability',
        fintsbStatisticsSpec(stats),
      ),
    );
  }
  blocks.push({
    kind: 'table',
    columns: ['pattern', 'datasets', 'series', 'ADF', 'lag-1 ACF', 'forecastability', 'split'],
    rows: stats.map((s) => [s.pattern, s.datasets, s.series, s.adf_stat, s.acf1, s.forecastability, s.split]),
  });
  return [
    { id: 'fintsb', title: 'FinTSB statistics', blocks },
    {
      id: 'fintsb-datasets',
      title: `Datasets (${datasets.length})`,
      blocks: [
        {
          kind: 'table',
          columns: ['dataset', 'pattern', 'freq', 'K', 'L', 'members', 'train', 'valid', 'test'],
          rows: datasets.map((d) => [
            d.dataset,
            d.pattern,
            d.frequency,
            d.k,
            d.length,
            d.members,
            `${isoDay(d.train_start)} … ${isoDay(d.train_end)}`,
            `${isoDay(d.valid_start)} … ${isoDay(d.valid_end)}`,
            `${isoDay(d.test_start)} … ${isoDay(d.test_end)}`,
          ]),
        },
      ],
    },
  ];
}
