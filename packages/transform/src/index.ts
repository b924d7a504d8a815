import { OBSERVATION_MODELS } from './run-models.ts';

export * from './load-registry-tables.ts';
export * from './membership-warnings.ts';
export * from './run-models.ts';
export * from './short-eval-series-warning.ts';
export * from './stage-sink.ts';
export * from './write-universe.ts';

/** The universe models in dependency order. */
export const UNIVERSE_MODELS = [
  ...OBSERVATION_MODELS,
  'series_stats',
  'membership',
  'member_spans',
  'series',
  'short_eval_series',
  'tasks',
  'corporate_actions',
  'invariant_violations',
] as const;
export * from './error-codes.ts';
