export * from './error-codes.ts';
export * from './generate-scale-universe.ts';
export * from './read-scale-shape.ts';
export * from './scale-config.ts';
export * from './scale-source.ts';
