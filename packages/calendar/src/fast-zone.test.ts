import { describe, expect, it } from 'vitest';
import { localDateOfMicros, localTimeToMicros, zoneOffsetMs } from './fast-zone.ts';
import { microsToZonedDate, zonedMicros } from './zoned-micros.ts';

describe('fast zone conversions', () => {
  it('match zonedMicros / microsToZonedDate across DST changes and zones', () => {
    const zones = ['America/New_York', 'Europe/London', 'Asia/Tokyo', 'UTC', 'Australia/Sydney'];
    const dates = [
      '2021-03-13',
      '2021-03-14',
      '2021-03-15',
      '2021-11-07',
      '2021-07-20',
      '1985-04-28',
      '2024-02-29',
    ];
    for (const tz of zones) {
      for (const date of dates) {
        for (const time of ['00:00', '01:30', '02:30', '09:30', '13:00', '16:00', '23:59:59.999999']) {
          const us = localTimeToMicros(date, time, tz);
          expect(us, `${date} ${time} ${tz}`).toBe(zonedMicros(date, time, tz));
          expect(localDateOfMicros(us, tz)).toBe(microsToZonedDate(us, tz));
        }
      }
    }
  });

  it('gives the New York offset in summer and winter', () => {
    expect(zoneOffsetMs(Date.UTC(2021, 6, 20, 20), 'America/New_York')).toBe(-4 * 3_600_000);
    expect(zoneOffsetMs(Date.UTC(2021, 11, 1, 21), 'America/New_York')).toBe(-5 * 3_600_000);
  });
});
