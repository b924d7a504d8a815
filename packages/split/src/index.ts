export * from './check-dm-compatible.ts';
export * from './history-store.ts';
export * from './label-window.ts';
export * from './lookahead-error.ts';
export * from './parse-embargo.ts';
export * from './run-forecaster.ts';
export * from './run-split.ts';
export * from './write-mini-universe.ts';
