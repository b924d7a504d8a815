import { describe, expect, it } from 'vitest';
import { cutRanges, keyRanges, partPath } from './key-ranges.ts';
import { Duck } from './open-duck.ts';

describe('cutRanges', () => {
  it('packs consecutive keys up to maxRows, never splitting a key', () => {
    const counts: [number, number][] = [
      [1, 4],
      [2, 4],
      [3, 3],
      [5, 12],
      [6, 1],
    ];
    expect(cutRanges(counts, 10)).toEqual([
      [1, 2],
      [3, 3],
      [5, 5],
      [6, 6],
    ]);
    expect(cutRanges(counts, 100)).toEqual([[1, 6]]);
    expect(cutRanges([], 10)).toEqual([]);
  });
});

describe('keyRanges', () => {
  it('reads the key counts from a query and cuts them', async () => {
    const duck = await Duck.open({ threads: 1 });
    try {
      await duck.run('CREATE TABLE t AS SELECT (i % 7)::INTEGER AS k FROM range(70) AS r(i)');
      const ranges = await keyRanges(
        duck,
        'SELECT k AS key, count(*) AS n FROM t WHERE k >= $min GROUP BY k',
        { min: 1 },
        25,
      );
      expect(ranges).toEqual([
        [1, 2],
        [3, 4],
        [5, 6],
      ]);
    } finally {
      duck.close();
    }
  });
});

describe('partPath', () => {
  it('keeps the name for one part and numbers several', () => {
    expect(partPath('observations/frequency=BD/data.parquet', 0, 1)).toBe(
      'observations/frequency=BD/data.parquet',
    );
    expect(partPath('observations/frequency=BD/data.parquet', 2, 3)).toBe(
      'observations/frequency=BD/data-002.parquet',
    );
  });
});
