export * from './counter-prng.ts';
