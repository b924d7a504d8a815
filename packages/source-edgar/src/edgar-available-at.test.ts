import { isoToMicros, zonedMicros } from '@asof/calendar';
import { describe, expect, it } from 'vitest';
import { edgarAvailableAt } from './edgar-available-at.ts';

describe('edgarAvailableAt (SPEC §4)', () => {
  it('reads acceptanceDateTime as New York wall-clock time even though it ends in Z', () => {
    // AAPL 10-Q 0001628280-17-000717: accepted 16:33:29 "Z"; read as EST that is 21:33:29 UTC.
    expect(
      edgarAvailableAt({ filingDate: '2017-02-01', acceptanceDateTime: '2017-02-01T16:33:29.000Z' }),
    ).toBe(isoToMicros('2017-02-01T21:33:29Z'));
  });

  it('uses the filing date at 07:30 ET when the filing was accepted after 17:30 ET the day before', () => {
    // AAPL 10-K 0000320193-19-000119: accepted 2019-10-30 18:12 ET, dated 2019-10-31.
    expect(
      edgarAvailableAt({ filingDate: '2019-10-31', acceptanceDateTime: '2019-10-30T18:12:36.000Z' }),
    ).toBe(isoToMicros('2019-10-31T11:30:00Z'));
  });

  it('never goes below the filing date at 07:30 ET, even for an early-morning acceptance', () => {
    const at = edgarAvailableAt({ filingDate: '2018-11-05', acceptanceDateTime: '2018-11-05T06:01:40.000Z' });
    expect(at).toBe(zonedMicros('2018-11-05', '07:30', 'America/New_York'));
  });

  it('uses the filing date at 23:59:59 ET when no acceptance time is known', () => {
    expect(edgarAvailableAt({ filingDate: '2021-02-26' })).toBe(isoToMicros('2021-02-27T04:59:59Z'));
    expect(edgarAvailableAt({ filingDate: '2021-07-26', acceptanceDateTime: null })).toBe(
      isoToMicros('2021-07-27T03:59:59Z'),
    );
  });

  it('is DST-correct', () => {
    expect(
      edgarAvailableAt({ filingDate: '2020-07-31', acceptanceDateTime: '2020-07-31T16:05:00.000Z' }),
    ).toBe(isoToMicros('2020-07-31T20:05:00Z'));
  });
});
