/**
 * Counter-based PRNG (SPEC §5): every draw is a pure hash of (seed, stream, step), so output does not
 * depend on generation order or thread count. FNV-1a over the key, finished with murmur3's fmix32.
 */
function hash32(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Uniform in [0, 1) with 53 random bits. */
export function counterUniform(seed: number | string, stream: string, step: number): number {
  const hi = hash32(`${seed}|${stream}|${step}|hi`) >>> 5; // 27 bits
  const lo = hash32(`${seed}|${stream}|${step}|lo`) >>> 6; // 26 bits
  return (hi * 67108864 + lo) / 9007199254740992;
}

/** Standard normal (Box–Muller on two counter draws). */
export function counterNormal(seed: number | string, stream: string, step: number): number {
  const u1 = counterUniform(seed, `${stream}/u1`, step) || Number.MIN_VALUE;
  const u2 = counterUniform(seed, `${stream}/u2`, step);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}
