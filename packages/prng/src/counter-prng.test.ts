import { describe, expect, it } from 'vitest';
import { normal, uniform } from './counter-prng.ts';

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
});
