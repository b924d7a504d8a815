import { describe, expect, it } from 'vitest';
import { localDateOfMicros } from './fast-zone.ts';
import { endOfDayMicros, isoToMicros, microsToIso, parseIsoDate, zonedMicros } from './zoned-micros.ts';

describe('zonedMicros', () => {
  it('is DST-correct for 08:30 America/New_York', () => {
    // CPI release 2024-01-11 (EST, UTC-5) and 2024-07-11 (EDT, UTC-4)
    expect(microsToIso(zonedMicros('2024-01-11', '08:30', 'America/New_York'))).toBe(
      '2024-01-11T13:30:00.000000Z',
    );
    expect(microsToIso(zonedMicros('2024-07-11', '08:30', 'America/New_York'))).toBe(
      '2024-07-11T12:30:00.000000Z',
    );
  });
  it('keeps microseconds at the end of a day', () => {
    expect(microsToIso(endOfDayMicros('2023-09-30'))).toBe('2023-10-01T03:59:59.999999Z');
  });
  it('round-trips ISO instants and refuses naive ones', () => {
    const us = isoToMicros('2021-07-20T20:00:00.123456Z');
    expect(microsToIso(us)).toBe('2021-07-20T20:00:00.123456Z');
    expect(isoToMicros('2021-07-20T16:00:00-04:00')).toBe(isoToMicros('2021-07-20T20:00:00Z'));
    expect(() => isoToMicros('2021-07-20T20:00:00')).toThrow(/with a zone/);
  });
  it('rejects impossible dates', () => {
    expect(() => parseIsoDate('2023-02-30')).toThrow(/not a calendar date/);
    expect(() => parseIsoDate('2023/02/03')).toThrow(/YYYY-MM-DD/);
  });
  it('gives the local date of an instant', () => {
    expect(localDateOfMicros(isoToMicros('2021-07-21T02:00:00Z'), 'America/New_York')).toBe('2021-07-20');
  });
});
