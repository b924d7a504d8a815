export { runCli } from './main.ts';
