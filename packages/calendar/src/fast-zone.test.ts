import { TZDate } from '@date-fns/tz';
import { describe, expect, it } from 'vitest';
import { localDateOfMicros, zoneOffsetMs } from './fast-zone.ts';
import { zonedMicros } from './zoned-micros.ts';

/** What @date-fns/tz's TZDate gives for a wall time (the reference the Intl path must equal). */
function byTzDate(date: string, time: string, tz: string): number {
  const [y, mo, d] = date.split('-').map(Number);
  const [hms, frac = ''] = time.split('.');
  const [h, mi, s = 0] = hms.split(':').map(Number);
  const f = frac.padEnd(6, '0');
  const ms = new TZDate(y, mo - 1, d, h, mi, s, Number(f.slice(0, 3)), tz).getTime();
  return ms * 1000 + Number(f.slice(3, 6));
}

function dateByTzDate(us: number, tz: string): string {
  const z = new TZDate(Math.floor(us / 1000), tz);
  return `${z.getFullYear()}-${String(z.getMonth() + 1).padStart(2, '0')}-${String(z.getDate()).padStart(2, '0')}`;
}

describe('fast zone conversions', () => {
  it('match TZDate across DST changes (gaps and overlaps included) and zones', () => {
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
          const us = zonedMicros(date, time, tz);
          expect(us, `${date} ${time} ${tz}`).toBe(byTzDate(date, time, tz));
          expect(localDateOfMicros(us, tz)).toBe(dateByTzDate(us, tz));
        }
      }
    }
  });

  it('match TZDate on the days of the DST months (and every 1st) of 1940–2030 in New York and 2000–2030 elsewhere', () => {
    // Every day of March, April, October and November (where both hemispheres change their clocks in
    // these years, wartime New York aside, which the 1st of each month samples) and each month's 1st.
    const sweep = (tz: string, from: number, to: number, times: string[]) => {
      let mismatches = 0;
      for (let day = Date.UTC(from, 0, 1); day < Date.UTC(to + 1, 0, 1); day += 86_400_000) {
        const date = new Date(day).toISOString().slice(0, 10);
        if (!['03', '04', '10', '11'].includes(date.slice(5, 7)) && !date.endsWith('-01')) continue;
        for (const time of times) {
          const us = zonedMicros(date, time, tz);
          if (us !== byTzDate(date, time, tz) || localDateOfMicros(us, tz) !== dateByTzDate(us, tz)) {
            expect.soft(us, `${date} ${time} ${tz}`).toBe(byTzDate(date, time, tz));
            mismatches++;
          }
        }
      }
      return mismatches;
    };
    expect(sweep('America/New_York', 1940, 2030, ['08:30', '23:59:59.999999'])).toBe(0);
    // Lord Howe moves its clocks by 30 minutes, Kathmandu and St John's are off the whole hour.
    for (const tz of [
      'Europe/London',
      'Australia/Sydney',
      'America/Chicago',
      'Asia/Kolkata',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'America/St_Johns',
    ]) {
      expect(sweep(tz, 2000, 2030, ['01:30', '02:30']), tz).toBe(0);
    }
  }, 60_000);

  it('match TZDate every quarter hour around a day a zone skipped (Samoa, 2011-12-30)', () => {
    for (const date of ['2011-12-28', '2011-12-29', '2011-12-30', '2011-12-31', '2012-01-01']) {
      for (let q = 0; q < 96; q++) {
        const time = `${String(Math.floor(q / 4)).padStart(2, '0')}:${String((q % 4) * 15).padStart(2, '0')}`;
        const us = zonedMicros(date, time, 'Pacific/Apia');
        expect(us, `${date} ${time}`).toBe(byTzDate(date, time, 'Pacific/Apia'));
        expect(localDateOfMicros(us, 'Pacific/Apia')).toBe(dateByTzDate(us, 'Pacific/Apia'));
      }
    }
  });

  it('gives the New York offset in summer and winter', () => {
    expect(zoneOffsetMs(Date.UTC(2021, 6, 20, 20), 'America/New_York')).toBe(-4 * 3_600_000);
    expect(zoneOffsetMs(Date.UTC(2021, 11, 1, 21), 'America/New_York')).toBe(-5 * 3_600_000);
  });
});
