import { endOfDayMicros, microsToIso, zonedMicros } from '@asof/calendar';
import { describe, expect, it } from 'vitest';
import { parseVintageColumn, rtdsmPeriod, rtdsmVintageAvailableAt, rtdsmYear } from './rtdsm-dates.ts';

const ET = 'America/New_York';

describe('parseVintageColumn', () => {
  it('splits variable, vintage and its information date (15th of the quarter’s middle month)', () => {
    expect(parseVintageColumn('ROUTPUT65Q4')).toMatchObject({
      variable: 'ROUTPUT',
      kind: 'Q',
      year: 1965,
      index: 4,
      infoDate: '1965-11-15',
    });
    expect(parseVintageColumn('RUC24Q1')).toMatchObject({
      variable: 'RUC',
      year: 2024,
      infoDate: '2024-02-15',
    });
    expect(parseVintageColumn('ROUTPUT99Q3')?.infoDate).toBe('1999-08-15');
  });

  it('reads monthly vintages, dated the last day of their month, and variables ending in digits', () => {
    expect(parseVintageColumn('PCPI98M11')).toMatchObject({
      variable: 'PCPI',
      kind: 'M',
      infoDate: '1998-11-30',
    });
    expect(parseVintageColumn('M165Q4')).toMatchObject({ variable: 'M1', year: 1965, index: 4 });
    expect(parseVintageColumn('DATE')).toBeUndefined();
    expect(parseVintageColumn('ROUTPUT65Q5')).toBeUndefined();
  });

  it('orders vintages in time across the century', () => {
    const order = (c: string) => parseVintageColumn(c)!.order;
    expect(order('ROUTPUT99Q4')).toBeLessThan(order('ROUTPUT00Q1'));
    expect(order('PCPI98M11')).toBeLessThan(order('PCPI98M12'));
    expect(rtdsmYear(64)).toBe(2064);
    expect(rtdsmYear(65)).toBe(1965);
  });
});

describe('rtdsmVintageAvailableAt', () => {
  it('is the end of the 7th day after the information date, New York time', () => {
    expect(microsToIso(rtdsmVintageAvailableAt(parseVintageColumn('ROUTPUT24Q1')!))).toBe(
      '2024-02-23T04:59:59.999999Z',
    );
    expect(microsToIso(rtdsmVintageAvailableAt(parseVintageColumn('RUC23Q3')!))).toBe(
      '2023-08-23T03:59:59.999999Z',
    );
    expect(microsToIso(rtdsmVintageAvailableAt(parseVintageColumn('PCPI98M12')!))).toBe(
      '1999-01-08T04:59:59.999999Z',
    );
  });
});

describe('rtdsmPeriod', () => {
  it('stamps quarters and months like source-fred (end of period ET; period_start its first day)', () => {
    expect(rtdsmPeriod('1947:Q1')).toEqual({
      date: '1947-01-01',
      frequency: 'Q',
      timestamp: endOfDayMicros('1947-03-31', ET),
      period_start: zonedMicros('1947-01-01', '00:00', ET),
    });
    expect(rtdsmPeriod('1947:02')).toMatchObject({
      date: '1947-02-01',
      frequency: 'M',
      timestamp: endOfDayMicros('1947-02-28', ET),
    });
    expect(rtdsmPeriod('1965:M11')?.date).toBe('1965-11-01');
    expect(rtdsmPeriod('1947:Q5')).toBeUndefined();
    expect(rtdsmPeriod('1947-01')).toBeUndefined();
  });
});
