export { FredmdConfig } from './fredmd-config.ts';
export { fredmdSource } from './fredmd-source.ts';
