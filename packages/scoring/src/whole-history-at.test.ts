import { describe, expect, it } from 'vitest';
import { wholeHistoryAt } from './whole-history-at.ts';

describe('wholeHistoryAt', () => {
  it('is the as-of view at each origin: late releases, revisions and duplicates counted once', () => {
    // Timestamps 1..5; ts 3 released only at 10 (first 30, revised at 12 to 31); ts 1 revised at 8.
    const rows = {
      ts: [1, 1, 2, 3, 3, 4, 5, 2],
      av: [1, 8, 2, 10, 12, 4, 5, 2],
      value: [100, 101, 102, 30, 31, 104, 105, 102],
    };
    const at = wholeHistoryAt(rows, [0, 2, 4, 8, 10, 12]);
    expect(at).toEqual([
      { first: Number.NaN, length: 0 },
      { first: 100, length: 2 },
      { first: 100, length: 3 },
      { first: 101, length: 4 },
      { first: 101, length: 5 },
      { first: 101, length: 5 },
    ]);
  });

  it('leaves out a timestamp while its latest public vintage is a withdrawal (value NaN)', () => {
    // ts 1: 5 at 1, withdrawn at 4, published again (6) at 7.
    const rows = { ts: [1, 1, 1, 2, 3], av: [1, 4, 7, 2, 3], value: [5, Number.NaN, 6, 7, 8] };
    expect(wholeHistoryAt(rows, [3, 4, 7])).toEqual([
      { first: 5, length: 3 },
      { first: 7, length: 2 },
      { first: 6, length: 3 },
    ]);
  });
});
