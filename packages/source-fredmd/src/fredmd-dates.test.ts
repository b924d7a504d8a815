import { endOfDayMicros, microsToIso, zonedMicros } from '@asof/calendar';
import { describe, expect, it } from 'vitest';
import { checkVintage, fredmdPeriod, fredmdVintageAvailableAt, vintageFromName } from './fredmd-dates.ts';

describe('vintageFromName', () => {
  it('finds the one YYYY-MM anywhere in the name', () => {
    expect(vintageFromName('2020-07.csv')).toBe('2020-07');
    expect(vintageFromName('fredmd_vintage_1999-08.csv')).toBe('1999-08');
    expect(vintageFromName('FRED-QD_2021-08_quarterly.csv')).toBe('2021-08');
    expect(vintageFromName('2020-07-15.csv')).toBe('2020-07');
  });

  it('is undefined for a name without one (current.csv) and refuses two different ones', () => {
    expect(vintageFromName('current.csv')).toBeUndefined();
    expect(vintageFromName('fredmd_2020-13.csv')).toBeUndefined();
    expect(() => vintageFromName('2020-07_vs_2020-08.csv')).toThrow(
      expect.objectContaining({ code: 'FREDMD_AMBIGUOUS_VINTAGE' }),
    );
  });

  it('checks a vintage given by the pipeline', () => {
    expect(checkVintage('2024-03', 'x')).toBe('2024-03');
    expect(() => checkVintage('2024-3', 'x')).toThrow(
      expect.objectContaining({ code: 'FREDMD_BAD_VINTAGE' }),
    );
  });
});

describe('fredmdVintageAvailableAt', () => {
  it('is the end of the 7th day after the vintage month, New York time', () => {
    expect(microsToIso(fredmdVintageAvailableAt('2020-07'))).toBe('2020-08-08T03:59:59.999999Z');
    expect(fredmdVintageAvailableAt('2020-07')).toBe(endOfDayMicros('2020-08-07', 'America/New_York'));
    // December rolls into January; EST (UTC-5) in winter.
    expect(microsToIso(fredmdVintageAvailableAt('1999-12'))).toBe('2000-01-08T04:59:59.999999Z');
  });

  it('is later than every release the vintage can hold (its month’s last business day)', () => {
    // 2020-07 holds June 2020 personal income, released by BEA on 2020-07-31 08:30 ET.
    expect(fredmdVintageAvailableAt('2020-07')).toBeGreaterThan(
      zonedMicros('2020-07-31', '08:30', 'America/New_York'),
    );
  });
});

describe('fredmdPeriod', () => {
  const ET = 'America/New_York';
  it("stamps months like source-fred's normalizeFredPeriod: end of the month, period_start its first day", () => {
    const p = fredmdPeriod('1/1/1959', 'M')!;
    expect(p.date).toBe('1959-01-01');
    expect(p.timestamp).toBe(endOfDayMicros('1959-01-31', ET));
    expect(p.period_start).toBe(zonedMicros('1959-01-01', '00:00', ET));
    expect(fredmdPeriod('01/01/1959', 'M')).toEqual(p);
    expect(fredmdPeriod('1959-01-01', 'M')).toEqual(p);
    expect(fredmdPeriod('2/1/2020', 'M')!.timestamp).toBe(endOfDayMicros('2020-02-29', ET));
  });

  it('maps a FRED-QD date to the quarter that holds its month', () => {
    const q = fredmdPeriod('3/1/2019', 'Q')!;
    expect(q.date).toBe('2019-01-01');
    expect(q.timestamp).toBe(endOfDayMicros('2019-03-31', ET));
    expect(q.period_start).toBe(zonedMicros('2019-01-01', '00:00', ET));
    expect(fredmdPeriod('1/1/2019', 'Q')).toEqual(q);
    expect(fredmdPeriod('12/1/2019', 'Q')!.timestamp).toBe(endOfDayMicros('2019-12-31', ET));
  });

  it('is undefined for what is not a first-of-month date', () => {
    for (const bad of ['1/15/1959', '13/1/1959', 'Transform:', '1959', '1/1/59']) {
      expect(fredmdPeriod(bad, 'M')).toBeUndefined();
    }
  });
});
