import type { Duck } from '@asof/duck';
import { createReportTable, ensureInputTable, runReportModel } from './run-report-model.ts';

export interface CoverageRow {
  scope: string;
  category: string;
  detail_category: string;
  frequency: string;
  series: number;
  observations: number;
  eval_targets: number;
  tasks: number;
}
export interface ActiveSeriesRow {
  month: number;
  category: string;
  series: number;
}
export interface LagBinRow {
  source: string;
  basis: string;
  bin: number;
  releases: number;
  share: number;
}
export interface LagQuantileRow {
  source: string;
  basis: string;
  releases: number;
  /** Lag in seconds at 0, 5, 25, 50, 75, 95, 100 %. */
  q_s: number[];
}
export interface VintageCountRow {
  source: string;
  vintages: number;
  periods: number;
}
export interface RevisionBinRow {
  source: string;
  bin: number;
  periods: number;
}
export interface TopRevisedRow {
  series_id: string;
  source: string;
  title: string | null;
  frequency: string;
  revised_periods: number;
  revisions: number;
  median_move: number;
  max_move: number;
}
export interface RestatedSeriesRow {
  series_id: string;
  source: string;
  title: string | null;
  frequency: string;
  restated_values: number;
  downloads: number;
  /** Epoch milliseconds. */
  first_period: number;
  last_period: number;
  median_move: number | null;
  max_move: number | null;
}
export interface PatternMixRow {
  category: string;
  frequency: string;
  label: string;
  segments: number;
}
export interface SegmentStatisticRow {
  category: string;
  frequency: string;
  statistic: 'adf_stat' | 'acf1' | 'forecastability';
  segments: number;
  /** 5, 25, 50, 75, 95 % quantiles. */
  q: number[];
}
export interface WarningCounts {
  static_series: number;
  synthetic_series: number;
  series: number;
  rule_observations: number;
  rule_series: number;
  withdrawals: number;
  withdrawn_series: number;
}

export interface UniverseAggregates {
  coverage: CoverageRow[];
  activeSeries: ActiveSeriesRow[];
  lagBins: LagBinRow[];
  lagQuantiles: LagQuantileRow[];
  vintageCounts: VintageCountRow[];
  revisionBins: RevisionBinRow[];
  topRevised: TopRevisedRow[];
  /** Every static series a later download restated (vendor_restatements.sql), most restated first. */
  restated: RestatedSeriesRow[];
  patternMix: PatternMixRow[];
  segmentStatistics: SegmentStatisticRow[];
  hasSegments: boolean;
  warnings: WarningCounts;
}

/** Publication-lag bins of publication_lag_bins.sql, in order. */
export const LAG_BINS = [
  '< 0 (before period end)',
  '0–1 d',
  '1–7 d',
  '7–14 d',
  '14–30 d',
  '30–60 d',
  '60–90 d',
  '90–180 d',
  '180–365 d',
  '≥ 365 d',
] as const;

/** Revision-size bins of revision_sizes.sql, in order. */
export const REVISION_BINS = [
  '0 (back to first)',
  '< 0.1 %',
  '0.1–1 %',
  '1–5 %',
  '5–20 %',
  '≥ 20 %',
] as const;

/**
 * Every universe aggregate the report draws, computed in DuckDB from the `in_*` tables that
 * openReportInputs loaded: only these few thousand rows reach the page, never the observations.
 */
export async function aggregateUniverse(
  duck: Duck,
  options: { topRevised?: number } = {},
): Promise<UniverseAggregates> {
  await ensureInputTable(duck, 'tasks', 'series_id VARCHAR');
  await ensureInputTable(
    duck,
    'segments',
    'series_id VARCHAR, frequency VARCHAR, label VARCHAR, adf_stat DOUBLE, acf1 DOUBLE, forecastability DOUBLE',
  );
  await createReportTable(duck, 'report_periods');
  await createReportTable(duck, 'report_first_releases');
  const [hasSegments] = await duck.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM in_segments');
  const [warnings] = await runReportModel<WarningCounts>(duck, 'warning_counts');
  return {
    coverage: await runReportModel<CoverageRow>(duck, 'coverage'),
    activeSeries: await runReportModel<ActiveSeriesRow>(duck, 'active_series'),
    lagBins: await runReportModel<LagBinRow>(duck, 'publication_lag_bins'),
    lagQuantiles: await runReportModel<LagQuantileRow>(duck, 'publication_lag_quantiles'),
    vintageCounts: await runReportModel<VintageCountRow>(duck, 'vintage_counts'),
    revisionBins: await runReportModel<RevisionBinRow>(duck, 'revision_sizes'),
    topRevised: await runReportModel<TopRevisedRow>(duck, 'top_revised_series', {
      limit: options.topRevised ?? 15,
    }),
    restated: await runReportModel<RestatedSeriesRow>(duck, 'vendor_restatements'),
    patternMix: await runReportModel<PatternMixRow>(duck, 'pattern_mix'),
    segmentStatistics: await runReportModel<SegmentStatisticRow>(duck, 'segment_statistics'),
    hasSegments: hasSegments.n > 0,
    warnings,
  };
}
