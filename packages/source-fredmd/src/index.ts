export { SOURCE_FREDMD_ERRORS } from './error-codes.ts';
export { FredmdConfig } from './fredmd-config.ts';
export { fredmdSource } from './fredmd-source.ts';
