export { SOURCE_SCALE_ERRORS } from './error-codes.ts';
export { generateScaleUniverse } from './generate-scale-universe.ts';
export { ScaleConfig } from './scale-config.ts';
export { scaleSource } from './scale-source.ts';
