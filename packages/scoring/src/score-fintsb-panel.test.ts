import { describe, expect, it } from 'vitest';
import { topkSize } from './score-fintsb-panel.ts';

describe('topkSize (FinTSB m, the top 10% held)', () => {
  const row = (present: number, of: number) =>
    Array.from({ length: of }, (_, j) => (j < present ? 0.01 * j : Number.NaN));

  it('is 10% of the assets present at the origins, not of every asset the unit ever held', () => {
    // 40 companies ever members, 10 at each origin (a point-in-time universe): m = 1, not 4.
    expect(topkSize([row(10, 40), row(10, 40), row(10, 40)])).toBe(1);
    expect(topkSize([row(40, 40), row(40, 40)])).toBe(4);
    // 300 present of 500 ever listed: FinTSB's 30.
    expect(topkSize([row(300, 500)])).toBe(30);
  });

  it('rounds the mean pool up and holds at least one', () => {
    expect(topkSize([row(11, 20), row(10, 20)])).toBe(2);
    expect(topkSize([row(2, 5)])).toBe(1);
    expect(topkSize([])).toBe(1);
  });
});
