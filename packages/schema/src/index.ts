export * from './asof-error.ts';
export * from './atomic-sink.ts';
export * from './frequency.ts';
export * from './observation.ts';
