import { isoDateProblem } from '@asof/calendar';
import { InputError, implausibleValueProblem } from '@asof/schema';
import type { DividendEvent, ParsedPriceFile, ParseIssue, SplitEvent } from './price-types.ts';

/** True for Yahoo's v7 event downloads: `Date,Stock Splits` or `Date,Dividends`. */
export function isYahooEventsCsv(text: string): boolean {
  const header = text.slice(0, 100).split(/\r?\n/, 1)[0].trim();
  return header === 'Date,Stock Splits' || header === 'Date,Dividends';
}

/**
 * Parses a Yahoo v7 events CSV (`events=split`: `2021-07-20,4:1`; `events=div`: `2021-02-17,0.560000`) into a
 * price file without bars. Dividends there are split-adjusted like Yahoo's prices.
 */
export function parseYahooEventsCsv(
  text: string,
  where = 'yahoo events csv',
  options: { symbol?: string | null } = {},
): ParsedPriceFile {
  const lines = text.split(/\r?\n/);
  const header = (lines[0] ?? '').trim();
  const isSplits = header === 'Date,Stock Splits';
  if (!isSplits && header !== 'Date,Dividends') {
    throw new InputError(
      'YAHOO_EVENTS_BAD_HEADER',
      `${where}: line 1 is ${JSON.stringify(header.slice(0, 60))}; expected Date,Stock Splits or Date,Dividends`,
      { context: { where } },
    );
  }
  const splits: SplitEvent[] = [];
  const dividends: DividendEvent[] = [];
  const issues: ParseIssue[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    const row = i + 1;
    const [date, value] = line.split(',');
    const ratio = /^(\d+(?:\.\d+)?)[:/](\d+(?:\.\d+)?)$/.exec(value ?? '');
    const dateProblem = isoDateProblem(date);
    if (dateProblem !== null) {
      throw new InputError(
        'YAHOO_EVENTS_BAD_DATE',
        `${where} line ${row}, field Date: ${JSON.stringify(date)} is not a calendar date (${dateProblem}); fix or remove the row`,
        { context: { where, row, field: 'Date', value: date } },
      );
    }
    const amount = isSplits ? (ratio ? Number(ratio[1]) / Number(ratio[2]) : Number.NaN) : Number(value);
    const implausible = Number.isFinite(amount) ? implausibleValueProblem(amount) : null;
    if (implausible !== null) {
      throw new InputError(
        'YAHOO_EVENTS_IMPLAUSIBLE_VALUE',
        `${where} line ${row}, field ${isSplits ? 'Stock Splits' : 'Dividends'}: ${implausible}; fix or remove the row`,
        { context: { where, row, value } },
      );
    }
    if (isSplits && ratio && Number(ratio[1]) > 0 && Number(ratio[2]) > 0) {
      splits.push({ exDate: date, ratio: Number(ratio[1]) / Number(ratio[2]) });
    } else if (!isSplits && Number(value) > 0) {
      dividends.push({ exDate: date, amount: Number(value) });
    } else {
      issues.push({
        code: 'BAD_EVENT',
        row,
        message: `${where} line ${row}: ${JSON.stringify(value)} is not a ${isSplits ? 'split ratio like 4:1' : 'positive dividend'}; row skipped`,
      });
    }
  }
  const byDate = (a: { exDate: string }, b: { exDate: string }) => (a.exDate < b.exDate ? -1 : 1);
  return {
    format: 'yahoo_events_csv',
    symbol: options.symbol ?? null,
    currency: null,
    timeZone: 'America/New_York',
    instrumentType: null,
    name: null,
    bars: [],
    splits: splits.sort(byDate),
    dividends: dividends.sort(byDate),
    splitsListed: isSplits,
    adjustment: 'split',
    marketTimeMicros: null,
    issues,
  };
}
