import { zonedMicros } from '@asof/calendar';
import { InputError, type Micros } from '@asof/schema';

const NY = 'America/New_York';
const ACCEPTANCE = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?(?:Z|[+-]\d{2}(?::?\d{2})?)$/;

export interface FilingTimes {
  /** Filing date YYYY-MM-DD (submissions `filingDate`, or companyfacts `filed`). */
  filingDate: string;
  /** Submissions `acceptanceDateTime`, e.g. `2019-10-30T18:04:23.000Z`; absent when no submissions row is known. */
  acceptanceDateTime?: string | null;
}

/**
 * When a filing became public (SPEC §4). `acceptanceDateTime` ends in `Z` but is Eastern wall-clock for
 * some filers and UTC for others; reading it as Eastern gives the later (safe) instant. A filing accepted
 * after 17:30 ET is dated the next business day and posted the next morning, which the 07:30 ET floor on
 * the filing date covers. With only the filing date known, the end of that day (23:59:59 ET) is used.
 */
export function edgarAvailableAt(times: FilingTimes): Micros {
  const floor = zonedMicros(times.filingDate, '07:30', NY);
  if (!times.acceptanceDateTime) return zonedMicros(times.filingDate, '23:59:59', NY);
  const acc = ACCEPTANCE.exec(times.acceptanceDateTime);
  if (!acc) {
    // Never fall back silently to the end of the filing day: a malformed time is a damaged file.
    throw new InputError(
      'EDGAR_BAD_ACCEPTANCE_TIME',
      `acceptanceDateTime ${JSON.stringify(times.acceptanceDateTime)} is not an instant like 2019-10-30T18:04:23.000Z`,
      { context: { value: times.acceptanceDateTime } },
    );
  }
  return Math.max(floor, zonedMicros(acc[1], acc[2], NY));
}
