export { fredmdSource } from './fredmd-source.ts';
