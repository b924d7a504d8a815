import { describe, expect, it } from 'vitest';
import {
  checkIsoDate,
  checkIsoInstant,
  isIsoDate,
  isIsoInstant,
  isoDateProblem,
  isoInstantProblem,
} from './strict-dates.ts';
import { isoToMicros, microsToIso, parseIsoDate } from './zoned-micros.ts';

describe('strict calendar dates', () => {
  it('refuses dates that Date.parse would roll over', () => {
    // The reason this module exists: Date.parse('2020-04-31') is 2020-05-01, not an error.
    expect(Number.isNaN(Date.parse('2020-04-31'))).toBe(false);
    expect(isIsoDate('2020-04-31')).toBe(false);
    expect(isoDateProblem('2020-04-31')).toBe('April 2020 has 30 days');
    expect(isoDateProblem('2021-02-29')).toBe('February 2021 has 28 days');
    expect(isoDateProblem('2021-13-01')).toBe('there is no month 13');
    expect(isoDateProblem('2021-00-10')).toBe('there is no month 00');
    expect(isoDateProblem('2021-01-00')).toBe('January 2021 has 31 days');
    for (const bad of [
      '2021-1-01',
      '2021/01/01',
      '20210101',
      ' 2021-01-01',
      '2021-01-01T00:00',
      '',
      'abcd-ef-gh',
    ])
      expect(isIsoDate(bad), bad).toBe(false);
    expect(isoDateProblem(20210101)).toMatch(/got a number/);
  });

  it('accepts every real date, leap days included', () => {
    for (const good of ['2020-02-29', '2000-02-29', '1776-07-04', '9999-12-31', '2021-04-30', '2021-12-31'])
      expect(isIsoDate(good), good).toBe(true);
    expect(isIsoDate('1900-02-29')).toBe(false);
    // Every day of 2023–2024 agrees with the UTC calendar.
    for (let t = Date.UTC(2023, 0, 1); t < Date.UTC(2025, 0, 1); t += 86_400_000) {
      expect(isIsoDate(new Date(t).toISOString().slice(0, 10))).toBe(true);
    }
  });

  it('names where the bad date is and why', () => {
    expect(() => checkIsoDate('2020-04-31', 'prices.csv line 7, field Date')).toThrow(
      'prices.csv line 7, field Date: "2020-04-31" is not a calendar date (April 2020 has 30 days)',
    );
    expect(() => parseIsoDate('2020-04-31', 'x.json filed')).toThrow(
      /x\.json filed: "2020-04-31" is not a calendar date/,
    );
    expect(checkIsoDate('2020-04-30', 'w')).toBe('2020-04-30');
  });
});

describe('strict instants', () => {
  it('requires a zone and a real time of day', () => {
    expect(isIsoInstant('2021-07-20T20:00:00Z')).toBe(true);
    expect(isIsoInstant('2021-07-20T16:00:00.123-04:00')).toBe(true);
    expect(isoInstantProblem('2021-07-20T20:00:00')).toMatch(/no time zone/);
    expect(isoInstantProblem('2021-07-20T24:00:00Z')).toMatch(/not a time of day/);
    expect(isoInstantProblem('2021-07-20T23:60:00Z')).toMatch(/not a time of day/);
    expect(isoInstantProblem('2021-04-31T10:00:00Z')).toBe('April 2021 has 30 days');
    expect(isoInstantProblem('2021-07-20T10:00:00+15:00')).toMatch(/not a UTC offset/);
    expect(() => checkIsoInstant('2021-07-20 10:00', 'meta.json downloaded_at')).toThrow(
      /meta\.json downloaded_at: "2021-07-20 10:00" is not an instant \(it has no time zone/,
    );
  });

  it('isoToMicros reads only what the strict check accepts', () => {
    // Date.parse reads 24:00 as the next midnight; asof refuses it.
    expect(Number.isNaN(Date.parse('2021-07-20T24:00:00Z'))).toBe(false);
    expect(() => isoToMicros('2021-07-20T24:00:00Z')).toThrow(/not a time of day/);
    expect(() => isoToMicros('2020-04-31T00:00:00Z')).toThrow(/April 2020 has 30 days/);
    expect(microsToIso(isoToMicros('2021-07-20T16:00:00-0400'))).toBe('2021-07-20T20:00:00.000000Z');
    expect(microsToIso(isoToMicros('2021-07-20T16:00:00-04'))).toBe('2021-07-20T20:00:00.000000Z');
  });
});
