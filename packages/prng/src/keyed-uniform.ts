import { hashString, normal, uniform } from './counter-prng.ts';

/**
 * String-keyed draws over the counter-based PRNG: a generator that names its streams (the synthetic EDGAR
 * one: "company/3/revenue") gets the draws of the numeric counters those names hash to.
 */
export function keyedUniform(seed: number | string, stream: string, step: number): number {
  return uniform(hashString(String(seed)), hashString(stream), step);
}

/** Standard normal for the same keys. */
export function keyedNormal(seed: number | string, stream: string, step: number): number {
  return normal(hashString(String(seed)), hashString(stream), step);
}
