/**
 * The one counter-based PRNG of asof, shared by every synthetic generator (embedded panel, EDGAR, ALFRED,
 * Yahoo). Counter-based PRNG: every draw is a pure function of (seed, stream, step, lane), so output never depends
 * on generation order or thread count (SPEC §5). Mixing is two rounds of the murmur3 32-bit finaliser over
 * the packed counter; two independent 32-bit words make a 53-bit uniform.
 */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The first two mixing rounds, over (seed, stream): the same for every draw of one stream. A generator that
 * draws many steps and lanes of a stream mixes them once (`stepKey`, then `normalAt` or `uniformAt` per
 * lane) and gets bit for bit what `normal` and `uniform` give.
 */
export function streamKey(seed: number, stream: number): number {
  const h = fmix32((seed ^ 0x9e3779b9) >>> 0);
  return fmix32((h ^ Math.imul(stream + 0x7f4a7c15, 0x27d4eb2f)) >>> 0);
}

/** The third round, over the step: shared by every lane of one step, and by both uniforms of a normal. */
export function stepKey(key: number, step: number): number {
  return fmix32((key ^ Math.imul(step + 0x165667b1, 0x9e3779b1)) >>> 0);
}

/** `uniform(seed, stream, step, lane)` from `stepKey(streamKey(seed, stream), step)`. */
export function uniformAt(key: number, lane = 0): number {
  const h = fmix32((key ^ Math.imul(lane + 0x2545f491, 0x85ebca77)) >>> 0);
  const hi = h >>> 5; // 27 bits
  const lo = fmix32((h ^ 0x68e31da4) >>> 0) >>> 6; // 26 more bits from one extra mixing round
  return (hi * 67108864 + lo + 0.5) / 9007199254740992;
}

/** `normal(seed, stream, step, lane)` from `stepKey(streamKey(seed, stream), step)`. */
export function normalAt(key: number, lane = 0): number {
  const u1 = uniformAt(key, lane * 2 + 100);
  const u2 = uniformAt(key, lane * 2 + 101);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/** Uniform in (0, 1), never exactly 0 or 1. */
export function uniform(seed: number, stream: number, step: number, lane = 0): number {
  return uniformAt(stepKey(streamKey(seed, stream), step), lane);
}

/** Standard normal by Box–Muller on two counter-based uniforms. */
export function normal(seed: number, stream: number, step: number, lane = 0): number {
  return normalAt(stepKey(streamKey(seed, stream), step), lane);
}

/** 32-bit FNV-1a hash of a string, to turn names (symbols, series keys) into numeric streams. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
