import type { Duck } from '@asof/duck';
import { ensureInputTable, runReportModel } from './run-report-model.ts';

export interface TrainMonthRow {
  month: number;
  category: string;
  observations: number;
}
export interface TrainSummaryRow {
  category: string;
  frequency: string;
  series: number;
  observations: number;
  last_timestamp: number | null;
  last_available_at: number | null;
}
export interface OriginMonthRow {
  month: number;
  frequency: string;
  window: string;
  origins: number;
  pending: number;
}
export interface WindowRow {
  window: string;
  frequency: string;
  origins: number;
  series: number;
  pending_origins: number;
  pending_steps: number;
  target_steps: number;
  first_origin: number | null;
  last_origin: number | null;
  first_known: number | null;
  last_known: number | null;
}

export interface SplitAggregates {
  trainMonths: TrainMonthRow[];
  trainSummary: TrainSummaryRow[];
  originMonths: OriginMonthRow[];
  windows: WindowRow[];
}

/** The split aggregates, from the `in_*` tables of a split manifest (either layout: only origins and train). */
export async function aggregateSplit(duck: Duck): Promise<SplitAggregates> {
  await ensureInputTable(
    duck,
    'train_observations',
    'series_id VARCHAR, "timestamp" TIMESTAMPTZ, available_at TIMESTAMPTZ',
  );
  await ensureInputTable(
    duck,
    'train_series',
    'series_id VARCHAR, category VARCHAR, frequency VARCHAR, n_obs BIGINT, last_timestamp TIMESTAMPTZ',
  );
  await ensureInputTable(
    duck,
    'origins',
    `series_id VARCHAR, frequency VARCHAR, origin TIMESTAMPTZ, horizon_steps INTEGER, n_target_steps_known INTEGER,
     target_known_at TIMESTAMPTZ, "window" VARCHAR`,
  );
  return {
    trainMonths: await runReportModel<TrainMonthRow>(duck, 'split_train_months'),
    trainSummary: await runReportModel<TrainSummaryRow>(duck, 'split_train_summary'),
    originMonths: await runReportModel<OriginMonthRow>(duck, 'split_origins_months'),
    windows: await runReportModel<WindowRow>(duck, 'split_windows'),
  };
}
