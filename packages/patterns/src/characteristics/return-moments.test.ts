import { DOUBLE, Duck, INTEGER } from '@asof/duck';
import { returnMoments } from '@asof/stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let duck: Duck;
beforeAll(async () => {
  duck = await Duck.open({ threads: 1 });
});
afterAll(() => duck.close());

/** A deterministic mix of returns: small, large, of both signs, some repeated, with a few extremes. */
function returns(seed: number, n: number): Float64Array {
  const x = new Float64Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const u = s / 2147483648;
    x[i] =
      i % 17 === 3 ? 0.2 * (u - 0.5) : i % 29 === 5 ? x[Math.max(0, i - 1)] : 0.02 * (u - 0.5) + 1e-9 * i;
  }
  if (n > 10) x[7] = 3.5;
  return x;
}

describe('returnMoments', () => {
  it("equals DuckDB's avg and stddev_samp over the same values in the same order, bit for bit", async () => {
    const lengths = [1, 2, 3, 8, 59, 249, 250, 1000];
    const cases = lengths.map((n, k) => returns(k + 1, n));
    await duck.run('CREATE OR REPLACE TABLE v (g INTEGER, i INTEGER, x DOUBLE)');
    const cols: number[][] = [[], [], []];
    cases.forEach((x, g) => {
      x.forEach((v, i) => {
        cols[0].push(g);
        cols[1].push(i);
        cols[2].push(v);
      });
    });
    await duck.appendColumns('v', [INTEGER, INTEGER, DOUBLE], cols);
    // ORDER BY inside the aggregate feeds each group's values in step order, as a one-thread scan of a
    // table stored in step order did before (the numbers segment_stats used to compute itself).
    const rows = await duck.all<{ g: number; mean: number; std: number | null }>(
      'SELECT g, avg(x ORDER BY i) AS mean, stddev_samp(x ORDER BY i) AS std FROM v GROUP BY g ORDER BY g',
    );
    expect(rows).toHaveLength(cases.length);
    for (const r of rows) {
      const m = returnMoments(cases[r.g]);
      expect(Object.is(m.mean, r.mean), `mean of group ${r.g}: ${m.mean} vs ${r.mean}`).toBe(true);
      if (r.std === null) expect(m.std).toBeNaN();
      else expect(Object.is(m.std, r.std), `std of group ${r.g}: ${m.std} vs ${r.std}`).toBe(true);
    }
  });

  it('depends on the order of the values (why segment_stats takes them from the ordered stream)', () => {
    const x = returns(5, 249);
    const reversed = Float64Array.from(x).reverse();
    const a = returnMoments(x);
    const b = returnMoments(reversed);
    expect(a.mean).toBeCloseTo(b.mean, 12);
    expect(a.std).toBeCloseTo(b.std, 12);
    expect(a.mean !== b.mean || a.std !== b.std).toBe(true);
  });
});
