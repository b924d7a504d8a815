import { hashString, normal, uniform } from '@asof/prng';

/**
 * String-keyed draws over the shared counter-based PRNG (SPEC §5): the EDGAR generator names its
 * streams ("company/3/revenue"), which hash to the numeric counters of `@asof/prng`.
 */
export function counterUniform(seed: number | string, stream: string, step: number): number {
  return uniform(hashString(String(seed)), hashString(stream), step);
}

/** Standard normal for the same keys. */
export function counterNormal(seed: number | string, stream: string, step: number): number {
  return normal(hashString(String(seed)), hashString(stream), step);
}
