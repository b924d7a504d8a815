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

function hash4(a: number, b: number, c: number, d: number): number {
  let h = fmix32((a ^ 0x9e3779b9) >>> 0);
  h = fmix32((h ^ Math.imul(b + 0x7f4a7c15, 0x27d4eb2f)) >>> 0);
  h = fmix32((h ^ Math.imul(c + 0x165667b1, 0x9e3779b1)) >>> 0);
  h = fmix32((h ^ Math.imul(d + 0x2545f491, 0x85ebca77)) >>> 0);
  return h;
}

/** Uniform in (0, 1), never exactly 0 or 1. */
export function uniform(seed: number, stream: number, step: number, lane = 0): number {
  const h = hash4(seed, stream, step, lane);
  const hi = h >>> 5; // 27 bits
  const lo = fmix32((h ^ 0x68e31da4) >>> 0) >>> 6; // 26 more bits from one extra mixing round
  return (hi * 67108864 + lo + 0.5) / 9007199254740992;
}

/** Standard normal by Box–Muller on two counter-based uniforms. */
export function normal(seed: number, stream: number, step: number, lane = 0): number {
  const u1 = uniform(seed, stream, step, lane * 2 + 100);
  const u2 = uniform(seed, stream, step, lane * 2 + 101);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/** 32-bit FNV-1a hash of a string, to turn names (symbols, series keys) into numeric streams. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
