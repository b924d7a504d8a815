export { hashString, normal, normalAt, stepKey, streamKey, uniform, uniformAt } from './counter-prng.ts';
export { keyedNormal, keyedUniform } from './keyed-uniform.ts';
