export { generateScaleUniverse } from './generate-scale-universe.ts';
export { scaleSource } from './scale-source.ts';
