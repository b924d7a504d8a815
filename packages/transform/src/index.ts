export * from './load-registry-tables.ts';
export * from './run-models.ts';
export * from './stage-sink.ts';
export * from './write-universe.ts';

/** The universe models in dependency order. */
export const UNIVERSE_MODELS = [
  'observations',
  'series',
  'tasks',
  'corporate_actions',
  'invariant_violations',
] as const;
