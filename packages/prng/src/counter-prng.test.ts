import { describe, expect, it } from 'vitest';
import { normal, normalAt, stepKey, streamKey, uniform, uniformAt } from './counter-prng.ts';

describe('counter-based PRNG', () => {
  it('is a pure function of its counters', () => {
    expect(uniform(1, 2, 3)).toBe(uniform(1, 2, 3));
    expect(uniform(1, 2, 3)).not.toBe(uniform(1, 2, 4));
    expect(uniform(1, 2, 3)).not.toBe(uniform(2, 2, 3));
  });
  it('gives standard normals', () => {
    const n = 200_000;
    let s = 0;
    let s2 = 0;
    for (let i = 0; i < n; i++) {
      const z = normal(7, 0, i);
      s += z;
      s2 += z * z;
    }
    expect(Math.abs(s / n)).toBeLessThan(0.01);
    expect(Math.abs(s2 / n - 1)).toBeLessThan(0.02);
  });
  it('gives uniforms in (0,1) with the right mean', () => {
    let s = 0;
    for (let i = 0; i < 100_000; i++) {
      const u = uniform(3, 9, i);
      expect(u > 0 && u < 1).toBe(true);
      s += u;
    }
    expect(Math.abs(s / 100_000 - 0.5)).toBeLessThan(0.005);
  });
  it('draws the values it drew before the keyed form existed (every synthetic universe depends on them)', () => {
    // [seed, stream, step, lane, uniform, normal], from the implementation before streamKey/stepKey (9ad4ee0).
    const pinned = [
      [20260101, 0, 0, 0, 0.43073656644602526, -0.31614702118876276],
      [20260101, 1000016, 5287, 1, 0.47982523055815257, -0.48338137300590056],
      [20260101, 1000024, 17, 4, 0.5465915116585769, -0.03562380379006565],
      [7, 3, 123456, 2, 0.21817205050587535, -1.0296059273341387],
      [4294967295, 65535, 2147483647, 9, 0.15146497478846793, 0.6903664278952135],
      [0, 0, 0, 0, 0.36910682569958825, 0.9084581584451281],
    ];
    for (const [seed, stream, step, lane, u, z] of pinned) {
      expect(uniform(seed, stream, step, lane)).toBe(u);
      expect(normal(seed, stream, step, lane)).toBe(z);
    }
  });
  it('gives bit for bit the same draws through streamKey and stepKey', () => {
    for (const seed of [0, 20260101, 4294967295]) {
      for (let stream = 0; stream < 40; stream += 7) {
        const key = streamKey(seed, stream);
        for (let step = 0; step < 300; step += 13) {
          const at = stepKey(key, step);
          for (let lane = 0; lane < 6; lane++) {
            expect(uniformAt(at, lane)).toBe(uniform(seed, stream, step, lane));
            expect(normalAt(at, lane)).toBe(normal(seed, stream, step, lane));
          }
        }
      }
    }
  });
});
