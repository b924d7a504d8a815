import { localDateOfMicros } from './fast-zone.ts';

/**
 * The period an observation is about, in the series' own terms: `2019-12` (M), `2019Q4` (Q), `FY2019`
 * (A with a fiscal year that does not end in December; `2019` for calendar years), `2020-03-04` (D, BD, W:
 * the day, or the week's last day). A timestamp is the end of its period as New York wall time
 * (23:59:59.999999 New York for M/Q/A, the session close for bars; docs/decisions/0004), so the label is
 * read from the New York date of the timestamp, never from its UTC date (04:59:59Z on the next day).
 */
export function periodLabel(
  timestampMicros: number,
  frequency: string,
  fiscalYearEnd?: string | null,
): string {
  const day = localDateOfMicros(timestampMicros, 'America/New_York');
  const year = day.slice(0, 4);
  switch (frequency) {
    case 'M':
      return day.slice(0, 7);
    case 'Q':
      return `${year}Q${Math.ceil(Number(day.slice(5, 7)) / 3)}`;
    case 'A':
      return fiscalYearEnd && fiscalYearEnd !== '1231' ? `FY${year}` : year;
    default:
      return day;
  }
}
