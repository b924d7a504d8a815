import { describe, expect, it } from 'vitest';
import { seasonalNaivePath } from './seasonal-naive-path.ts';

// values[r] = 100 + (grid steps before the origin's step), so each output names the step it was taken from.
const path = (backs: number[], m: number, horizon: number) => {
  const values = backs.map((b) => 100 + b);
  const out = new Float64Array(horizon);
  seasonalNaivePath(values, (r) => backs[r], values[values.length - 1], horizon, m, out);
  return Array.from(out);
};

describe('seasonalNaivePath', () => {
  it("counts from the origin's own step, not from the last public value (a lagged series)", () => {
    // Monthly, the origin's own month not out yet (u = 1): steps 24…1 before the origin are public.
    const backs = Array.from({ length: 24 }, (_, i) => 24 - i);
    // k = 1…11 want back 11…1 (last year's same month); k = 12 wants back 0, not public: back 12.
    expect(path(backs, 12, 12)).toEqual([...Array.from({ length: 11 }, (_, i) => 111 - i), 112]);
  });

  it('falls back to the random walk when no value of the season is public, and for m ≤ 1', () => {
    // k = 1, 2 want backs 3, 2 (public); k = 3, 4 want backs 1, 0 (not public, nor a season earlier): y_o.
    expect(path([3, 2], 4, 4)).toEqual([103, 102, 102, 102]);
    expect(path([5, 1], 1, 3)).toEqual([101, 101, 101]);
    expect(path([], 4, 2)).toEqual([Number.NaN, Number.NaN]);
  });
});
