import { InputError } from '@asof/schema';
import { isStooqCsv } from './parse-stooq-csv.ts';
import {
  isYahooDownloadCsv,
  parseUserCsvBySymbol,
  splitCsvLine,
  type UserCsvColumns,
} from './parse-user-csv.ts';
import { isYahooEventsCsv } from './parse-yahoo-events-csv.ts';
import type { ParsedPriceFile, PriceBar, PriceFormat, SplitEvent } from './price-types.ts';

/**
 * What the raw-dir reader can detect, with the shape it recognises (named in the unknown-format error).
 * `zipline_benchmark_returns` is recognised but holds daily returns, not prices: listed, accounted, not mapped.
 */
export const KNOWN_PRICE_FORMATS: Record<PriceFormat | 'zipline_benchmark_returns', string> = {
  yahoo_chart: 'Yahoo v8 chart JSON (*.json)',
  yahoo_csv: 'Yahoo v7 download Date,Open,High,Low,Close,Adj Close,Volume',
  yahoo_ichart_csv: 'Yahoo pre-2017 download Date,Open,High,Low,Close,Volume,Adj Close',
  yahoo_events_csv: 'Yahoo events Date,Stock Splits or Date,Dividends',
  yfinance_csv: 'yfinance Datetime,Open,High,Low,Close,Adj Close,Volume,Dividends,Stock Splits',
  stooq_csv: 'Stooq Date,Open,High,Low,Close,Volume with YYYY-MM-DD dates',
  google_finance_csv: 'Google Finance Date,Open,High,Low,Close,Volume with 31-Dec-10 dates',
  quandl_wiki: 'Quandl WIKI Date,Open,High,Low,Close,Volume,Ex-Dividend,Split Ratio,Adj. Open,…',
  quandl_wiki_table:
    'Quandl WIKI/PRICES ticker,date,open,high,low,close,volume,ex-dividend,split_ratio,adj_…',
  zipline_csvdir: 'zipline csvdir date,open,high,low,close,volume,dividend,split',
  lean_daily:
    'QuantConnect/Lean daily equity, headerless YYYYMMDD 00:00,open,high,low,close,volume (× 10000)',
  lean_factor_file: 'Lean factor_files/<sym>.csv YYYYMMDD,price_factor,split_factor,reference_price',
  user_csv: 'any CSV with a column mapping in options.userCsv',
  zipline_benchmark_returns: 'zipline benchmark date,return (daily returns, not prices: not mapped)',
};

export type DetectedPriceFormat = PriceFormat | 'zipline_benchmark_returns';

const header = (text: string): string[] =>
  splitCsvLine(text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '', ',').map((h) =>
    h.trim().toLowerCase(),
  );
const firstDataLine = (text: string): string => text.split(/\r?\n/, 3)[1] ?? '';
const same = (a: string[], b: string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

const LEAN_ROW =
  /^\d{8} \d{2}:\d{2},-?\d+(?:\.\d+)?,-?\d+(?:\.\d+)?,-?\d+(?:\.\d+)?,-?\d+(?:\.\d+)?,\d+(?:\.\d+)?\r?$/;

/**
 * The format of a raw CSV file from its header and first data row, or null when none fits. Order matters:
 * Google Finance and Stooq share a header and differ in their dates; Yahoo's two downloads differ in the
 * place of `Adj Close`.
 */
export function detectCsvPriceFormat(text: string): DetectedPriceFormat | null {
  const first = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  if (LEAN_ROW.test(first)) return 'lean_daily';
  const h = header(text);
  if (same(h, ['date', 'return'])) return 'zipline_benchmark_returns';
  if (h.includes('ex-dividend') && h.includes('split ratio') && h[0] === 'date') return 'quandl_wiki';
  if (h[0] === 'ticker' && h[1] === 'date' && h.includes('ex-dividend') && h.includes('split_ratio'))
    return 'quandl_wiki_table';
  if (same(h, ['date', 'open', 'high', 'low', 'close', 'volume', 'dividend', 'split']))
    return 'zipline_csvdir';
  if ((h[0] === 'datetime' || h[0] === 'date') && h.includes('dividends') && h.includes('stock splits'))
    return 'yfinance_csv';
  if (isYahooDownloadCsv(text)) return 'yahoo_csv';
  if (same(h, ['date', 'open', 'high', 'low', 'close', 'volume', 'adj close'])) return 'yahoo_ichart_csv';
  if (
    same(h, ['date', 'open', 'high', 'low', 'close', 'volume']) &&
    /^\d{1,2}-[A-Za-z]{3}-\d{2},/.test(firstDataLine(text))
  )
    return 'google_finance_csv';
  if (isStooqCsv(text)) return 'stooq_csv';
  if (isYahooEventsCsv(text)) return 'yahoo_events_csv';
  return null;
}

/** The error for a file no format fits: exit 2, naming the file, its first line and every known format. */
export function unknownFormatError(file: string, text: string): InputError {
  const first = JSON.stringify((text.split(/\r?\n/, 1)[0] ?? '').slice(0, 80));
  return new InputError(
    'PRICES_UNKNOWN_FORMAT',
    `${file}: not a known price file format (line 1 is ${first}); known formats: ${Object.entries(
      KNOWN_PRICE_FORMATS,
    )
      .filter(([k]) => k !== 'lean_factor_file' && k !== 'user_csv')
      .map(([, v]) => v)
      .join('; ')}. Remove the file from the folder, or give it a column mapping (userCsv)`,
    { context: { file, header: first } },
  );
}

const WORDS = new Set(['CSV', 'WIKI', 'TEST', 'RAW', 'DAILY', 'SAMPLE', 'DL', 'US', 'D']);

/**
 * The symbol a file name gives: a stem that is a ticker (`AAPL.csv`, `aapl.csv`: zipline's and Lean's own
 * layouts), else the first upper-case token between underscores that is not a vendor word or a date
 * (`quandl_wiki_AIG_2009_….csv` → AIG, `lean_algoseek_daily_raw_x10000_FB.csv` → FB). Null when none.
 */
export function symbolFromFileName(file: string): string | null {
  const stem = file.replace(/\.(csv|json|txt)$/i, '');
  if (/^[A-Za-z0-9^=-]{1,10}(?:\.[A-Za-z]{1,2})?$/.test(stem) && /[A-Za-z]/.test(stem))
    return stem.toUpperCase();
  for (const token of stem.split('_')) {
    if (/^[A-Z^][A-Z0-9.^=-]*$/.test(token) && !WORDS.has(token)) return token;
  }
  return null;
}

const QUANDL_WIKI_COLUMNS: UserCsvColumns = {
  date: 'Date',
  open: 'Open',
  high: 'High',
  low: 'Low',
  close: 'Close',
  volume: 'Volume',
  dividend: 'Ex-Dividend',
  split: 'Split Ratio',
};
const QUANDL_TABLE_COLUMNS: UserCsvColumns = {
  ticker: 'ticker',
  date: 'date',
  open: 'open',
  high: 'high',
  low: 'low',
  close: 'close',
  volume: 'volume',
  dividend: 'ex-dividend',
  split: 'split_ratio',
};
const ZIPLINE_COLUMNS: UserCsvColumns = {
  date: 'date',
  open: 'open',
  high: 'high',
  low: 'low',
  close: 'close',
  volume: 'volume',
  dividend: 'dividend',
  split: 'split',
};
const OHLCV = { open: 'Open', high: 'High', low: 'Low', close: 'Close', volume: 'Volume' };

/**
 * Parses a vendor CSV of a detected format into one parsed file per symbol (several for Quandl's table).
 * `Adj…` columns are never read. Quandl's raw columns and Yahoo's pre-2017 OHLCV are as traded; Yahoo v7,
 * yfinance and Google Finance are split-adjusted (undone with the split list); zipline's is told per file
 * (`ziplineSplitAdjustment`). `symbol` is used where the file has no ticker column.
 */
export function parseVendorCsv(
  format: Exclude<
    DetectedPriceFormat,
    | 'yahoo_chart'
    | 'stooq_csv'
    | 'yahoo_events_csv'
    | 'lean_daily'
    | 'lean_factor_file'
    | 'user_csv'
    | 'zipline_benchmark_returns'
  >,
  text: string,
  where: string,
  symbol: string | null,
): ParsedPriceFile[] {
  switch (format) {
    case 'quandl_wiki':
      return parseUserCsvBySymbol(
        text,
        { columns: QUANDL_WIKI_COLUMNS, symbol, format, adjustment: 'none' },
        where,
      );
    case 'quandl_wiki_table':
      return parseUserCsvBySymbol(text, { columns: QUANDL_TABLE_COLUMNS, format, adjustment: 'none' }, where);
    case 'zipline_csvdir': {
      const files = parseUserCsvBySymbol(
        text,
        { columns: ZIPLINE_COLUMNS, symbol, format, adjustment: 'none' },
        where,
      );
      for (const f of files) f.adjustment = ziplineSplitAdjustment(f.bars, f.splits, where);
      return files;
    }
    case 'yfinance_csv': {
      const date = header(text)[0] === 'datetime' ? 'Datetime' : 'Date';
      return parseUserCsvBySymbol(
        text,
        {
          columns: { date, ...OHLCV, dividend: 'Dividends', split: 'Stock Splits' },
          symbol,
          format,
          adjustment: 'split',
        },
        where,
      );
    }
    case 'yahoo_csv':
      return parseUserCsvBySymbol(
        text,
        { columns: { date: 'Date', ...OHLCV }, symbol, format, adjustment: 'split' },
        where,
      );
    case 'yahoo_ichart_csv':
      return parseUserCsvBySymbol(
        text,
        { columns: { date: 'Date', ...OHLCV }, symbol, format, adjustment: 'none' },
        where,
      );
    case 'google_finance_csv':
      return parseUserCsvBySymbol(
        text,
        { columns: { date: 'Date', ...OHLCV }, symbol, format, adjustment: 'split', dateFormat: 'D-MMM-YY' },
        where,
      );
  }
}

/**
 * Whether a zipline csvdir file's bars are as traded (`none`) or already divided by its splits (`split`):
 * zipline's loader expects raw bars and applies the `split` column itself, but files made from adjusted
 * downloads still carry the column (the AAPL sample: 2014-06-06 close 92.224289 = 645.57 / 7, and
 * split=7.0 on 2014-06-09). Per split, the close ratio across the ex-date (last bar before / bar on it)
 * near the split ratio means raw, near 1 means adjusted (nearer in log terms). Splits without a bar on both
 * sides tell nothing; a file whose splits disagree is refused (it cannot be undone once).
 */
export function ziplineSplitAdjustment(
  bars: PriceBar[],
  splits: SplitEvent[],
  where: string,
): 'none' | 'split' {
  const byDate = [...bars]
    .filter((b) => b.close !== null && b.close > 0)
    .sort((a, b) => (a.date < b.date ? -1 : 1));
  const verdicts = new Set<'none' | 'split'>();
  for (const s of splits) {
    const k = byDate.findIndex((b) => b.date >= s.exDate);
    if (k <= 0 || byDate[k].date !== s.exDate) continue;
    const r = Math.log(byDate[k - 1].close! / byDate[k].close!);
    verdicts.add(Math.abs(r) < Math.abs(r - Math.log(s.ratio)) ? 'split' : 'none');
  }
  if (verdicts.size > 1) {
    throw new InputError(
      'ZIPLINE_MIXED_SPLIT_ADJUSTMENT',
      `${where}: the bars are already adjusted for some of the split column's splits and not for others; split-adjust the file consistently (or not at all)`,
      { context: { where } },
    );
  }
  return verdicts.has('split') ? 'split' : 'none';
}
