export { SOURCE_RTDSM_ERRORS } from './error-codes.ts';
export { RtdsmConfig } from './rtdsm-config.ts';
export { rtdsmSource } from './rtdsm-source.ts';
