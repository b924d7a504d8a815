export * from './diff-universes.ts';
export * from './error-codes.ts';
export * from './run-diff-model.ts';
export * from './vendor-restatement-warnings.ts';
