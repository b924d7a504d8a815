import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { microsToIso } from '@asof/calendar';
import { describe, expect, it } from 'vitest';
import { isUsBusinessDay, nextUsBusinessDay, usFederalHolidays } from './fred-dates.ts';
import { normalizeFredPeriod } from './normalize-fred-period.ts';
import {
  calendarReleaseDate,
  PUBLICATION_LAGS,
  publicationDate,
  ruleAvailableAt,
} from './publication-lags.ts';
import { findReleaseTime, releaseAvailableAt } from './release-times.ts';

describe('publication rules', () => {
  it('CPI: period end + 32 days at 08:30 ET; payrolls: BLS reference-week rule; rates: next business day 16:15', () => {
    expect(microsToIso(ruleAvailableAt('2017-01-31', 'M', PUBLICATION_LAGS.CPIAUCSL).available_at)).toBe(
      '2017-03-04T13:30:00.000000Z',
    );
    // Actual Employment Situation dates: the first Friday would be a week early for Feb 2017 and Dec 2019.
    expect(publicationDate('2017-02-28', PUBLICATION_LAGS.PAYEMS)).toBe('2017-03-10');
    expect(publicationDate('2017-03-31', PUBLICATION_LAGS.PAYEMS)).toBe('2017-04-07');
    expect(publicationDate('2017-05-31', PUBLICATION_LAGS.PAYEMS)).toBe('2017-06-02');
    expect(publicationDate('2019-12-31', PUBLICATION_LAGS.PAYEMS)).toBe('2020-01-10');
    expect(publicationDate('2023-06-30', PUBLICATION_LAGS.PAYEMS)).toBe('2023-07-07');
    expect(
      publicationDate('2017-06-30', { kind: 'first_weekday_after_period_end', weekday: 5, time: '08:30' }),
    ).toBe('2017-07-07');
    // Friday before Presidents' Day → Tuesday.
    expect(publicationDate('2024-02-16', PUBLICATION_LAGS.DGS10)).toBe('2024-02-20');
    expect(microsToIso(ruleAvailableAt('2024-07-03', 'BD', PUBLICATION_LAGS.DGS10).available_at)).toBe(
      '2024-07-05T20:15:00.000000Z',
    );
  });

  it('picks the last release date of the following month, else the first after the period', () => {
    const cal = ['1995-12-14', '1996-02-01', '1996-02-28', '2017-02-13', '2017-02-15', '2017-03-15'];
    expect(calendarReleaseDate('2017-01-31', 'M', cal)).toBe('2017-02-15');
    expect(calendarReleaseDate('1995-11-30', 'M', cal)).toBe('1995-12-14');
    // Shutdown: no January 1996 release, December's CPI came on 1996-02-01.
    expect(calendarReleaseDate('1995-12-31', 'M', cal)).toBe('1996-02-01');
    expect(calendarReleaseDate('1996-01-31', 'M', cal)).toBe('1996-02-28');
    expect(calendarReleaseDate('2017-03-31', 'M', cal)).toBeUndefined();
    expect(calendarReleaseDate('2017-02-13', 'BD', cal)).toBe('2017-02-15');
  });

  it('knows US federal holidays with weekend observance', () => {
    expect([...usFederalHolidays(2021)]).toContain('2021-12-31'); // New Year 2022 on a Saturday
    expect(usFederalHolidays(2021).has('2021-06-18')).toBe(false); // Juneteenth counted from 2022
    expect(usFederalHolidays(2023).has('2023-06-19')).toBe(true);
    expect(usFederalHolidays(2024).has('2024-11-28')).toBe(true); // Thanksgiving
    expect(isUsBusinessDay('2024-11-29')).toBe(true);
    expect(nextUsBusinessDay('2024-12-24')).toBe('2024-12-26');
  });
});

const fredDir = fileURLToPath(new URL('../../../../shared/fixtures/real/fred', import.meta.url));
describe.skipIf(!existsSync(fredDir))(
  'lag rules against real release history (needs ../shared/fixtures/real)',
  () => {
    it('the CPI rule is never earlier than the real CPI release, Feb 1949–2024', () => {
      const cal = JSON.parse(
        readFileSync(join(fredDir, 'fred_api_release_dates_10.json'), 'utf8'),
      ).release_dates.map((d: { date: string }) => d.date);
      let checked = 0;
      for (let y = 1949; y <= 2024; y++) {
        for (let mo = 1; mo <= 12; mo++) {
          const end = new Date(Date.UTC(y, mo, 0)).toISOString().slice(0, 10);
          // The calendar starts 1949-03-24 (February 1949's release).
          const real = end < '1949-02-28' ? undefined : calendarReleaseDate(end, 'M', cal);
          if (real === undefined) continue;
          checked++;
          expect([end, publicationDate(end, PUBLICATION_LAGS.CPIAUCSL) >= real]).toEqual([end, true]);
        }
      }
      expect(checked).toBeGreaterThan(890);
    });

    it('the GDP rule is never earlier than the first release except in three shutdown quarters', () => {
      const ot4 = JSON.parse(
        readFileSync(
          join(fredDir, 'fred_api_series_observations_GDP_initial_release_output_type_4.json'),
          'utf8',
        ),
      ).observations as { date: string; realtime_start: string }[];
      const early = ot4
        .filter(
          (o) =>
            publicationDate(normalizeFredPeriod(o.date, 'Q').periodEnd, PUBLICATION_LAGS.GDP) <
            o.realtime_start,
        )
        .map((o) => o.date);
      expect(early).toEqual(['1995-10-01', '2013-07-01', '2018-10-01']);
    });
  },
);

describe('normalizeFredPeriod', () => {
  it('stamps M/Q/A at the period end 23:59:59.999999 ET and keeps the FRED date as period_start', () => {
    const q = normalizeFredPeriod('2019-01-01', 'Q');
    expect(q.periodEnd).toBe('2019-03-31');
    expect(microsToIso(q.timestamp)).toBe('2019-04-01T03:59:59.999999Z');
    expect(microsToIso(q.period_start!)).toBe('2019-01-01T05:00:00.000000Z');
    expect(normalizeFredPeriod('2020-01-01', 'A').periodEnd).toBe('2020-12-31');
    expect(normalizeFredPeriod('2024-02-01', 'M').periodEnd).toBe('2024-02-29');
    const w = normalizeFredPeriod('2025-01-10', 'W');
    expect(microsToIso(w.period_start!)).toBe('2025-01-04T05:00:00.000000Z');
    expect(normalizeFredPeriod('2025-01-10', 'BD').period_start).toBeNull();
    expect(() => normalizeFredPeriod('2019-01-15', 'M', 'x')).toThrow(/x: M observation dated 2019-01-15/);
  });
});

describe('release times', () => {
  it('uses the release time of day, DST-correct, else 23:59:59.999999 ET', () => {
    expect(microsToIso(releaseAvailableAt('2024-01-11', 10))).toBe('2024-01-11T13:30:00.000000Z');
    expect(microsToIso(releaseAvailableAt('2024-07-11', 10))).toBe('2024-07-11T12:30:00.000000Z');
    expect(microsToIso(releaseAvailableAt('2024-07-11', { name: 'h.15 selected interest rates' }))).toBe(
      '2024-07-11T20:15:00.000000Z',
    );
    expect(
      microsToIso(releaseAvailableAt('2024-07-11', { name: 'Chicago Fed National Activity Index' })),
    ).toBe('2024-07-11T13:30:00.000000Z');
    expect(microsToIso(releaseAvailableAt('2024-07-11', 99999))).toBe('2024-07-12T03:59:59.999999Z');
    expect(findReleaseTime({ name: 'ICE BofA Indices' })).toBeUndefined();
  });
});
