export { RtdsmConfig } from './rtdsm-config.ts';
export { rtdsmSource } from './rtdsm-source.ts';
