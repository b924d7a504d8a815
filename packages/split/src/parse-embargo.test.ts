import { describe, expect, it } from 'vitest';
import { parseEmbargo, subtractEmbargo } from './parse-embargo.ts';

describe('parseEmbargo / subtractEmbargo', () => {
  it('reads a number as days and ISO date durations', () => {
    expect(parseEmbargo(undefined).text).toBe('P0D');
    expect(parseEmbargo('30')).toMatchObject({ days: 30, months: 0, text: 'P30D' });
    expect(parseEmbargo('P2W')).toMatchObject({ days: 14, text: 'P14D' });
    expect(parseEmbargo('p1y6m')).toMatchObject({ years: 1, months: 6, days: 0, text: 'P1Y6M' });
  });

  it('refuses what it cannot read, saying what it takes', () => {
    for (const bad of ['P', 'PT12H', '-3', '1.5', '30 days', 'P1D2M']) {
      expect(() => parseEmbargo(bad), bad).toThrow(/neither a number of days nor a date duration.*P30D/);
    }
  });

  it('subtracts months on the calendar (clamped) and then days', () => {
    expect(subtractEmbargo('2020-01-01', parseEmbargo('0'))).toBe('2020-01-01');
    expect(subtractEmbargo('2020-01-01', parseEmbargo('30'))).toBe('2019-12-02');
    expect(subtractEmbargo('2020-03-31', parseEmbargo('P1M'))).toBe('2020-02-29');
    expect(subtractEmbargo('2020-01-15', parseEmbargo('P1Y2M3D'))).toBe('2018-11-12');
  });

  it('refuses an embargo that reaches before the year 1 in the terms the user gave, not as a date', () => {
    for (const text of ['99999999', 'P2021Y', 'P30000M']) {
      expect(() => subtractEmbargo('2020-01-01', parseEmbargo(text)), text).toThrow(
        /^--embargo P\d+[DYM]: eval_start 2020-01-01 minus the embargo falls before the year 1/,
      );
    }
    expect(subtractEmbargo('2020-01-01', parseEmbargo('P2019Y'))).toBe('0001-01-01');
  });
});
