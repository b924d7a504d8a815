import { describe, expect, it } from 'vitest';
import { type WholeHistoryQuery, wholeHistoryAt } from './whole-history-at.ts';

/** A query for y_1 only (no volatility window). */
const firstAt = (origin: number): WholeHistoryQuery => ({
  origin,
  tailStart: origin,
  tailStartStep: Number.NaN,
  returns: 0,
});
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
    const at = wholeHistoryAt(rows, ownStep, [0, 2, 4, 8, 10, 12].map(firstAt));
    expect(at.map((h) => [h.first, h.firstStep])).toEqual([
      [Number.NaN, Number.NaN],
      [100, 1],
      [100, 1],
      [101, 1],
      [101, 1],
      [101, 1],
    ]);
    for (const h of at) expect(h.before).toEqual([]);
  });

  it('leaves out a timestamp while its latest public vintage is a withdrawal (value NaN)', () => {
    // ts 1: 5 at 1, withdrawn at 4, published again (6) at 7.
    const rows = { ts: [1, 1, 1, 2, 3], av: [1, 4, 7, 2, 3], value: [5, Number.NaN, 6, 7, 8] };
    expect(wholeHistoryAt(rows, ownStep, [3, 4, 7].map(firstAt)).map((h) => [h.first, h.firstStep])).toEqual([
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
    expect(wholeHistoryAt(rows, stepOf, [firstAt(4)])[0]).toMatchObject({ first: 12, firstStep: 30 });
  });

  it('walks back from the tail for the volatility window: adjacent steps count, a hole does not', () => {
    // Steps 1…12 of a monthly series served except 7 and 8 (a hole); value 100 + step. The tail starts at
    // step 11: the window wants 4 returns before it — 10→11 (the junction), 9→10, 6→9 is none (the hole),
    // 5→6, 4→5.
    const steps = [1, 2, 3, 4, 5, 6, 9, 10, 11, 12];
    const rows = { ts: steps, av: steps, value: steps.map((s) => 100 + s) };
    const q = { origin: 12, tailStart: 11, tailStartStep: 11, returns: 4 };
    const [h] = wholeHistoryAt(rows, ownStep, [q]);
    expect(h.before).toEqual([104, 105, 106, 109, 110]);
    expect(h.beforeSteps).toEqual([4, 5, 6, 9, 10]);
    // As of 10 the history ends at step 10 (nothing later is public), and a window larger than the
    // history takes all of it.
    const early = wholeHistoryAt(rows, ownStep, [{ ...q, origin: 10, returns: 50 }])[0];
    expect(early.beforeSteps).toEqual([1, 2, 3, 4, 5, 6, 9, 10]);
    expect(early.first).toBe(101);
    // Values not yet public at the origin are not in it: step 9 published only at 20.
    const late = { ...rows, av: steps.map((s) => (s === 9 ? 20 : s)) };
    expect(wholeHistoryAt(late, ownStep, [q])[0].beforeSteps).toEqual([3, 4, 5, 6, 10]);
  });
});
