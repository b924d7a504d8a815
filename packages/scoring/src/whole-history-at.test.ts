import { describe, expect, it } from 'vitest';
import { wholeHistoryAt } from './whole-history-at.ts';

const ownStep = (ts: number) => ts;

describe('wholeHistoryAt', () => {
  it('is the as-of view at each origin: late releases and revisions as of the origin', () => {
    // Timestamps 1..5 (each its own grid step); ts 3 released only at 10 (first 30, revised at 12 to 31);
    // ts 1 revised at 8.
    const rows = {
      ts: [1, 1, 2, 3, 3, 4, 5, 2],
      av: [1, 8, 2, 10, 12, 4, 5, 2],
      value: [100, 101, 102, 30, 31, 104, 105, 102],
    };
    const at = wholeHistoryAt(rows, ownStep, [0, 2, 4, 8, 10, 12]);
    expect(at.map((h) => [h.first, h.firstStep])).toEqual([
      [Number.NaN, Number.NaN],
      [100, 1],
      [100, 1],
      [101, 1],
      [101, 1],
      [101, 1],
    ]);
  });

  it('leaves out a timestamp while its latest public vintage is a withdrawal (value NaN)', () => {
    // ts 1: 5 at 1, withdrawn at 4, published again (6) at 7.
    const rows = { ts: [1, 1, 1, 2, 3], av: [1, 4, 7, 2, 3], value: [5, Number.NaN, 6, 7, 8] };
    expect(wholeHistoryAt(rows, ownStep, [3, 4, 7]).map((h) => [h.first, h.firstStep])).toEqual([
      [5, 1],
      [7, 2],
      [6, 1],
    ]);
  });

  it('takes y_1 as the first value whose grid step is known', () => {
    // The grid steps of timestamps 1 and 2 are unknown (a training snapshot with a hole, placed only at
    // its ends, say): y_1 is the value of ts 3, on step 30.
    const rows = { ts: [1, 2, 3, 4], av: [1, 2, 3, 4], value: [10, 11, 12, 13] };
    const stepOf = (ts: number) => (ts < 3 ? Number.NaN : ts * 10);
    expect(wholeHistoryAt(rows, stepOf, [4])[0]).toMatchObject({ first: 12, firstStep: 30 });
  });
});
