export { rtdsmSource } from './rtdsm-source.ts';
