import { describe, expect, it } from 'vitest';
import { gramCholesky } from './gram-cholesky.ts';

describe('gramCholesky', () => {
  it('factors a positive definite matrix into L·Lᵀ', () => {
    // G = L·Lᵀ with L = [[2,0,0],[1,3,0],[−1,2,1]].
    const g = new Float64Array([4, 2, -2, 2, 10, 5, -2, 5, 6]);
    expect(gramCholesky(g, 3, 1e-5)).toBe(true);
    const lower = [g[0], g[3], g[4], g[6], g[7], g[8]];
    expect(lower.map((v) => Number(v.toFixed(12)))).toEqual([2, 1, 3, -1, 2, 1]);
  });

  it('refuses when a column is almost a multiple of the previous one', () => {
    const eps = 1e-4;
    // Columns a = (1,1), b = (1, 1+eps): 1 − R² of b on a is ~eps²/4 < 1e-5.
    const g = new Float64Array([2, 2 + eps, 2 + eps, 1 + (1 + eps) ** 2]);
    expect(gramCholesky(g, 2, 1e-5)).toBe(false);
    const g2 = new Float64Array([2, 2 + eps, 2 + eps, 1 + (1 + eps) ** 2]);
    expect(gramCholesky(g2, 2, 1e-12)).toBe(true);
  });
});
