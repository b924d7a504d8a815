export { SOURCE_FRED_ERRORS } from './error-codes.ts';
export { FredConfig } from './fred-config.ts';
export { FredObservation } from './fred-payload.ts';
export { fredSource } from './fred-source.ts';
export { generateSyntheticAlfred, SYNTHETIC_ALFRED_TEMPLATES } from './generate-synthetic-alfred.ts';
