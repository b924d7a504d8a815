import { isoDateProblem } from '@asof/calendar';
import { InputError, implausibleValueProblem } from '@asof/schema';
import type { ParsedPriceFile, ParseIssue, PriceBar } from './price-types.ts';

export interface ParseStooqCsvOptions {
  /** Symbol to record (Stooq files do not name it; `ingestPricesRawDir` takes it from the file name). */
  symbol?: string | null;
  /**
   * A row with fewer or more fields than the header: `report` (default) keeps the fields it has, leaves the
   * rest missing (never zero) and lists the row in `issues`; `error` throws.
   */
  raggedRows?: 'report' | 'error';
  /** Exchange time zone of the dates (default America/New_York, right for Stooq's `.us` symbols). */
  timeZone?: string;
  /** Quote currency (default USD, right for `.us` symbols). */
  currency?: string | null;
}

const ENGLISH = ['date', 'open', 'high', 'low', 'close', 'volume'];
// Stooq's Polish-language export uses these headers for the same columns.
const POLISH = ['data', 'otwarcie', 'najwyzszy', 'najnizszy', 'zamkniecie', 'wolumen'];

/** True when `text` starts with a Stooq daily-history header. */
export function isStooqCsv(text: string): boolean {
  const [first, second] = text.slice(0, 200).split(/\r?\n/, 2);
  const header = first.trim().toLowerCase().split(',');
  // Google Finance exports share the English header; their dates are `31-Dec-10`, Stooq's ISO.
  const isoDates = second === undefined || second.trim() === '' || /^\d{4}-\d{2}-\d{2},/.test(second);
  return (matchesHeader(header, ENGLISH) || matchesHeader(header, POLISH)) && isoDates;
}

function matchesHeader(header: string[], names: string[]): boolean {
  // Volume is optional in Stooq exports of indices and FX.
  return header.length >= 5 && header.every((h, i) => h === names[i]);
}

/**
 * Parses a Stooq daily CSV (`Date,Open,High,Low,Close,Volume`, CRLF or LF). Stooq back-adjusts prices AND
 * volume for splits and dividends (adjustment `split_dividend`), which cannot be undone.
 */
export function parseStooqCsv(
  text: string,
  where = 'stooq csv',
  options: ParseStooqCsvOptions = {},
): ParsedPriceFile {
  const ragged = options.raggedRows ?? 'report';
  const lines = text.split(/\r?\n/);
  const header = (lines[0] ?? '').trim().toLowerCase().split(',');
  if (!(matchesHeader(header, ENGLISH) || matchesHeader(header, POLISH))) {
    const first = (lines[0] ?? '').slice(0, 80);
    const hint = /no data|exceeded|limit/i.test(text.slice(0, 300))
      ? ' (Stooq answered with a message instead of data: wrong symbol or daily download limit)'
      : '';
    throw new InputError(
      'STOOQ_BAD_HEADER',
      `${where}: line 1 is ${JSON.stringify(first)}; expected the header Date,Open,High,Low,Close,Volume${hint}`,
      { context: { where, header: first } },
    );
  }
  const width = header.length;
  const hasVolume = width >= 6;
  const bars: PriceBar[] = [];
  const issues: ParseIssue[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (line === '' || line.trim() === '') continue;
    const row = i + 1;
    const cells = line.split(',');
    if (cells.length !== width) {
      const message = `${where} line ${row}: ${cells.length} fields, expected ${width} (${header.join(',')}): ${JSON.stringify(line)}; missing fields are left missing, not zero-filled`;
      if (ragged === 'error') {
        throw new InputError('RAGGED_ROW', `${message}. Fix or remove the row, or use raggedRows: 'report'`, {
          context: { where, row, line },
        });
      }
      issues.push({ code: 'RAGGED_ROW', row, message });
    }
    const date = cells[0].trim();
    const dateProblem = isoDateProblem(date);
    if (dateProblem !== null) {
      throw new InputError(
        'STOOQ_BAD_DATE',
        `${where} line ${row}, field ${header[0]}: ${JSON.stringify(date)} is not a calendar date (${dateProblem}); fix or remove the row`,
        { context: { where, row, field: header[0], value: date } },
      );
    }
    const num = (k: number, field: string): number | null => {
      const raw = cells[k];
      if (raw === undefined || raw.trim() === '') return null;
      const v = Number(raw);
      if (!Number.isFinite(v)) {
        issues.push({
          code: 'BAD_NUMBER',
          row,
          message: `${where} line ${row}: ${field} ${JSON.stringify(raw)} is not a number; left missing`,
        });
        return null;
      }
      const implausible = implausibleValueProblem(v);
      if (implausible !== null) {
        throw new InputError(
          'STOOQ_IMPLAUSIBLE_VALUE',
          `${where} line ${row}, field ${field}: ${implausible}; fix or remove the row`,
          { context: { where, row, field, value: raw } },
        );
      }
      return v;
    };
    bars.push({
      date,
      open: num(1, 'Open'),
      high: num(2, 'High'),
      low: num(3, 'Low'),
      close: num(4, 'Close'),
      volume: hasVolume ? num(5, 'Volume') : null,
      row,
    });
  }
  if (bars.length === 0) {
    throw new InputError(
      'STOOQ_NO_ROWS',
      `${where}: the file has a header but no data rows; Stooq sends this for a symbol or date range without bars: check them, or remove the file`,
      { context: { where } },
    );
  }
  return {
    format: 'stooq_csv',
    symbol: options.symbol ?? null,
    currency: options.currency === undefined ? 'USD' : options.currency,
    timeZone: options.timeZone ?? 'America/New_York',
    instrumentType: null,
    name: null,
    bars,
    splits: [],
    dividends: [],
    splitsListed: false,
    adjustment: 'split_dividend',
    marketTimeMicros: null,
    issues,
  };
}
