export * from './baselines-command.ts';
export * from './build-universe.ts';
export * from './commands.ts';
export * from './error-codes.ts';
export * from './load-pipeline.ts';
export { runCli } from './main.ts';
export * from './update-universe.ts';
export * from './write-baseline-forecasts.ts';
