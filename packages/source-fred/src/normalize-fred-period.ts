import type { Micros } from '@asof/calendar';
import { type Frequency, InputError } from '@asof/schema';
import { addDays, endOfMonth, weekday } from './fred-dates.ts';
import { cachedZoned } from './release-times.ts';

const ET = 'America/New_York';

export interface FredPeriod {
  /** Last calendar day of the period (YYYY-MM-DD). */
  periodEnd: string;
  /** End of the period, 23:59:59.999999 America/New_York, in UTC micros (SPEC §1). */
  timestamp: Micros;
  /** Start of a duration period (the FRED date for M/Q/A), 00:00 ET; null for daily values. */
  period_start: Micros | null;
}

/**
 * FRED dates M/Q/A observations by the first day of the period (2019-01-01 is 2019Q1); SPEC §1 stamps a
 * period at its end. Weekly FRED dates are the last day of the week ("Weekly, Ending Friday"), so the
 * period runs from six days earlier. Daily values are about that day.
 */
export function normalizeFredPeriod(date: string, frequency: Frequency, where = 'date'): FredPeriod {
  let periodEnd: string;
  let start: string | null;
  switch (frequency) {
    case 'M':
    case 'Q':
    case 'A': {
      if (!date.endsWith('-01')) {
        throw new InputError(
          'FRED_BAD_PERIOD_DATE',
          `${where}: ${frequency} observation dated ${date}; FRED dates monthly/quarterly/annual values by the first ` +
            'day of the period (YYYY-MM-01); check the frequency of the series',
          { context: { where, date, frequency } },
        );
      }
      const months = frequency === 'M' ? 0 : frequency === 'Q' ? 2 : 11;
      periodEnd = endOfMonth(date, months);
      start = date;
      break;
    }
    case 'W':
      periodEnd = date;
      start = addDays(date, -6);
      break;
    default:
      periodEnd = date;
      start = null;
  }
  return {
    periodEnd,
    timestamp: cachedZoned(periodEnd, '23:59:59.999999', ET),
    period_start: start === null ? null : cachedZoned(start, '00:00', ET),
  };
}

/** FRED `frequency_short` → asof frequency. FRED's "D" is business-daily unless weekend dates occur. */
export function fredFrequency(frequencyShort: string, dates: readonly string[], where: string): Frequency {
  switch (frequencyShort.toUpperCase()) {
    case 'D':
      return dates.some((d) => {
        const wd = weekday(d);
        return wd === 0 || wd === 6;
      })
        ? 'D'
        : 'BD';
    case 'W':
      return 'W';
    case 'M':
      return 'M';
    case 'Q':
      return 'Q';
    case 'A':
      return 'A';
    default:
      throw new InputError(
        'FRED_UNSUPPORTED_FREQUENCY',
        `${where}: FRED frequency "${frequencyShort}" is not one of D, W, M, Q, A (asof has no biweekly or ` +
          'semiannual grid); pick a FRED series at a supported frequency or pass frequency_aggregation',
        { context: { where, frequency_short: frequencyShort } },
      );
  }
}

/**
 * Frequency from the dates alone, for files without series metadata (fredgraph CSVs, bare observation
 * responses): the most common gap between consecutive distinct dates.
 */
export function inferFredFrequency(dates: readonly string[], where: string): Frequency {
  const uniq = [...new Set(dates)].sort();
  if (uniq.length < 2) {
    throw new InputError(
      'FRED_UNKNOWN_FREQUENCY',
      `${where}: cannot infer the frequency from ${uniq.length} date(s); give the series metadata ` +
        '(fred_api_series_<ID>.json) or a frequency in the options',
      { context: { where } },
    );
  }
  const counts = new Map<number, number>();
  for (let i = 1; i < uniq.length; i++) {
    const gap = Math.round((Date.parse(uniq[i]) - Date.parse(uniq[i - 1])) / 86_400_000);
    counts.set(gap, (counts.get(gap) ?? 0) + 1);
  }
  const [gap] = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
  const allFirsts = uniq.every((d) => d.endsWith('-01'));
  if (allFirsts && gap >= 28 && gap <= 31) return 'M';
  if (allFirsts && gap >= 89 && gap <= 92) return 'Q';
  if (allFirsts && gap >= 365 && gap <= 366) return 'A';
  if (gap === 7) return 'W';
  if (gap === 1 || gap === 3) return fredFrequency('D', uniq, where);
  throw new InputError(
    'FRED_UNKNOWN_FREQUENCY',
    `${where}: dates are ${gap} days apart, which is none of D, W, M, Q, A; give the frequency in the options`,
    { context: { where, gap } },
  );
}
