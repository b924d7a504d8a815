import { describe, expect, it } from 'vitest';
import { instantOf, parseInstant } from './parse-instant.ts';

describe('instantOf', () => {
  it.each([
    ['2024-01-02', Date.UTC(2024, 0, 2)],
    ['2024-02-29', Date.UTC(2024, 1, 29)],
    ['2000-02-29', Date.UTC(2000, 1, 29)],
    ['2024-01-02T21:00:00Z', Date.UTC(2024, 0, 2, 21)],
    ['2024-01-02T21:00Z', Date.UTC(2024, 0, 2, 21)],
    ['2024-01-02T00:00:00.000000Z', Date.UTC(2024, 0, 2)],
    ['2024-01-02T00:00:00.1239Z', Date.UTC(2024, 0, 2, 0, 0, 0, 123)],
    ['2024-01-02 00:00:00+00:00', Date.UTC(2024, 0, 2)],
    ['2024-01-02T01:30:00+01:30', Date.UTC(2024, 0, 2)],
    ['2024-01-01T19:00:00-0500', Date.UTC(2024, 0, 2)],
  ])('reads %s', (text, ms) => {
    expect(instantOf(text)).toBe(ms);
  });

  it('keeps a two-digit year as written (Date.UTC would make 0099 into 1999)', () => {
    expect(new Date(instantOf('0099-01-01') as number).getUTCFullYear()).toBe(99);
  });

  it.each([
    ['2020-04-31', /day 31, but April 2020 has 30 days/],
    ['2020-02-30T00:00:00Z', /day 30, but February 2020 has 29 days/],
    ['2021-02-29', /day 29, but February 2021 has 28 days/],
    ['1900-02-29', /February 1900 has 28 days/],
    ['2020-00-10', /month 00/],
    ['2020-13-01', /month 13/],
    ['2020-01-31T00:00:00', /time of day but no zone/],
    ['2020-01-31T00:00', /time of day but no zone/],
    ['2020-01-31T24:00:00Z', /expected 00:00:00…23:59:59/],
    ['2020-01-31T12:60:00Z', /expected 00:00:00…23:59:59/],
    ['2020-01-31T00:00:00+25:00', /zone offset/],
    ['Jan 31 2020', /not an ISO date/],
    ['2020/01/31', /not an ISO date/],
    ['20200131', /not an ISO date/],
    ['', /not an ISO date/],
  ])('refuses %s (no Date.parse rollover or local-time guess)', (text, reason) => {
    const r = instantOf(text);
    expect(typeof r).toBe('object');
    expect((r as { reason: string }).reason).toMatch(reason);
  });

  it('parseInstant names the place and the value', () => {
    expect(() => parseInstant('2020-04-31', 'split origins row 3')).toThrow(
      /split origins row 3: origin "2020-04-31" has day 31, but April 2020 has 30 days/,
    );
  });
});
