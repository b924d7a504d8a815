import { describe, expect, it } from 'vitest';
import { compactInputTails, compactTargets } from './expand-compact-split.ts';

// Series 'b', times in days: steps 10…60 each released the next day; day 20's value (2) is withdrawn on
// day 35 and published again (2.2) on day 57 (the compact layout leaves the withdrawal row out: it only
// ends the first vintage's life); day 30's value is withdrawn on day 45 for good.
const rows = {
  series_id: ['b', 'b', 'b', 'b', 'b', 'b', 'b'],
  ts: [10, 20, 20, 30, 40, 50, 60],
  av: [11, 21, 57, 31, 41, 51, 61],
  sup: [Number.NaN, 35, Number.NaN, 45, Number.NaN, Number.NaN, Number.NaN],
  value: [1, 2, 2.2, 3, 4, 5, 6],
};

describe('the compact split layout, expanded per origin', () => {
  it('serves at each origin the one live vintage per timestamp from lookback_start, newest last; marks the rows served', () => {
    const { tails, served } = compactInputTails(
      rows,
      [
        { series_id: 'b', origin: 30, lookbackStart: 10 },
        { series_id: 'b', origin: 50, lookbackStart: 10 },
        { series_id: 'b', origin: 58, lookbackStart: 20 },
        { series_id: 'b', origin: 62, lookbackStart: 40 },
        { series_id: 'x', origin: 62, lookbackStart: 40 },
        { series_id: 'b', origin: 62, lookbackStart: Number.NaN },
      ],
      3,
    );
    expect(tails[0]).toEqual({ ts: [10, 20], values: [1, 2] }); // 20 withdrawn only on day 35
    expect(tails[1]).toEqual({ ts: [10, 40], values: [1, 4] }); // 20 and 30 withdrawn; 50 released on 51
    expect(tails[2]).toEqual({ ts: [20, 40, 50], values: [2.2, 4, 5] }); // restored on 57; 10 before lookback
    expect(tails[3]).toEqual({ ts: [40, 50, 60], values: [4, 5, 6] });
    expect(tails[4]).toBeNull();
    expect(tails[5]).toBeNull();
    // Day 30's value (released day 31, withdrawn day 45) is live at no origin: in the file, served to none.
    expect(Array.from(served)).toEqual([1, 1, 1, 0, 1, 1, 1]);
  });

  it("lays target rows onto each origin's steps by origin_index, leaving pending steps out", () => {
    const t = compactTargets({ series_id: ['b', 'b', 'b'], step_index: [4, 5, 7], value: [40, 50, 70] }, [
      { series_id: 'b', origin: 'o3', origin_index: 3, horizon: 2 },
      { series_id: 'b', origin: 'o5', origin_index: 5, horizon: 2 },
    ]);
    expect(t).toEqual({
      series_id: ['b', 'b', 'b'],
      origin: ['o3', 'o3', 'o5'],
      step: [1, 2, 2],
      value: [40, 50, 70],
    });
  });
});
