export * from './baselines-command.ts';
export * from './commands.ts';
export * from './error-codes.ts';
export { runCli } from './main.ts';
