export { CLI_ERRORS } from './error-codes.ts';
export { runCli } from './main.ts';
