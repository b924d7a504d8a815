import { describe, expect, it } from 'vitest';
import { addIsoDays, dayNumberToIso, isoDayNumber, isoWeekday } from './iso-day.ts';
import {
  isUsTradingDay,
  nextUsTradingDay,
  previousUsTradingDay,
  usEarlyCloses,
  usExchangeHolidays,
  usSessionClose,
  usTradingDays,
  weekdayGrid,
} from './us-exchange-calendar.ts';
import { microsToIso } from './zoned-micros.ts';

describe('iso day arithmetic', () => {
  it('round-trips and knows weekdays', () => {
    expect(addIsoDays('2024-02-28', 2)).toBe('2024-03-01');
    expect(isoWeekday('2021-07-20')).toBe(2);
    expect(isoDayNumber('1970-01-02')).toBe(1);
  });
});

describe('US exchange calendar', () => {
  it('counts NYSE trading days per year (published totals)', () => {
    const counts: Record<number, number> = {
      2001: 248,
      2012: 250,
      2018: 251,
      2019: 252,
      2020: 253,
      2021: 252,
      2022: 251,
      2023: 250,
      2024: 252,
    };
    for (const [year, n] of Object.entries(counts)) {
      expect(usTradingDays(`${year}-01-01`, `${year}-12-31`).length, `year ${year}`).toBe(n);
    }
  });

  it('closes on rule holidays, observed days and special closures', () => {
    for (const d of [
      '2024-03-29', // Good Friday
      '2022-06-20', // Juneteenth observed (Sunday)
      '2027-06-18', // Juneteenth observed (Saturday)
      '2021-12-24', // Christmas observed (Saturday)
      '2021-07-05', // Independence Day observed (Sunday)
      '2020-07-03', // Independence Day observed (Saturday)
      '2001-09-11',
      '2001-09-14',
      '2004-06-11',
      '2007-01-02',
      '2012-10-29',
      '2012-10-30',
      '2018-12-05',
      '2025-01-09',
      '2024-01-15', // MLK
      '1985-09-27',
    ]) {
      expect(isUsTradingDay(d), d).toBe(false);
    }
    for (const d of ['2021-06-18', '2021-12-31', '2022-12-30', '1997-01-20', '2021-07-20', '2001-09-17']) {
      expect(isUsTradingDay(d), d).toBe(true);
    }
    expect(isUsTradingDay('2021-07-17')).toBe(false); // Saturday
    expect(usExchangeHolidays(2022).has('2021-12-31')).toBe(false);
    expect(usExchangeHolidays(2022).get('2022-01-17')).toBe('Martin Luther King Jr. Day');
  });

  it('knows early closes by year', () => {
    expect([...usEarlyCloses(2024).keys()].sort()).toEqual(['2024-07-03', '2024-11-29', '2024-12-24']);
    expect([...usEarlyCloses(2021).keys()].sort()).toEqual(['2021-11-26']); // July 4 on Sunday, Dec 24 closed
    expect([...usEarlyCloses(2019).keys()].sort()).toEqual(['2019-07-03', '2019-11-29', '2019-12-24']);
    expect(usEarlyCloses(2002).has('2002-07-05')).toBe(true); // Friday after a Thursday July 4, pre-2013
    expect(usEarlyCloses(2002).has('2002-07-03')).toBe(false); // Wednesday, pre-2013
    expect(usEarlyCloses(2013).has('2013-07-03')).toBe(true);
    expect(usEarlyCloses(2013).has('2013-07-05')).toBe(false);
    expect(usEarlyCloses(1992).get('1992-11-27')).toBe('14:00');
  });

  it('puts the session close at 16:00 New York, DST-correct, and 13:00 on early closes', () => {
    expect(microsToIso(usSessionClose('2021-07-20').micros)).toBe('2021-07-20T20:00:00.000000Z');
    expect(microsToIso(usSessionClose('2021-12-01').micros)).toBe('2021-12-01T21:00:00.000000Z');
    const blackFriday = usSessionClose('2021-11-26');
    expect(blackFriday.time).toBe('13:00');
    expect(microsToIso(blackFriday.micros)).toBe('2021-11-26T18:00:00.000000Z');
    // DST starts 2021-03-14: Friday before is EST, Monday after is EDT.
    expect(microsToIso(usSessionClose('2021-03-12').micros)).toBe('2021-03-12T21:00:00.000000Z');
    expect(microsToIso(usSessionClose('2021-03-15').micros)).toBe('2021-03-15T20:00:00.000000Z');
    expect(() => usSessionClose('2021-07-05')).toThrow(/not a US trading day \(Independence Day/);
  });

  it('steps to neighbouring trading days', () => {
    expect(nextUsTradingDay('2021-07-02')).toBe('2021-07-06');
    expect(previousUsTradingDay('2021-07-06')).toBe('2021-07-02');
  });

  it('builds the weekday grid with holidays included (260 or 261 a year)', () => {
    const g = weekdayGrid('2021-01-01', '2021-12-31');
    expect(g.length).toBe(261);
    expect(g).toContain('2021-07-05');
    expect(g.every((d) => isoWeekday(d) !== 0 && isoWeekday(d) !== 6)).toBe(true);
    expect(weekdayGrid('2021-07-17', '2021-07-18')).toEqual([]);
  });
});

describe('iso day numbers', () => {
  it('agree with Date.UTC over 1900–2100 and reject impossible dates', () => {
    for (let day = -25567; day <= 47482; day += 1) {
      const iso = new Date(day * 86_400_000).toISOString().slice(0, 10);
      if (isoDayNumber(iso) !== day) throw new Error(`isoDayNumber(${iso}) != ${day}`);
      if (dayNumberToIso(day) !== iso) throw new Error(`dayNumberToIso(${day}) != ${iso}`);
    }
    expect(isoDayNumber('2024-02-29')).toBe(19782);
    expect(() => isoDayNumber('2023-02-29')).toThrow(/not a calendar date/);
    expect(() => isoDayNumber('2023-2-1')).toThrow(/expected a date as YYYY-MM-DD/);
  });
});
