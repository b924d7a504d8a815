import type { Micros } from '@asof/schema';

/** One daily bar. A null field was missing in the source (it is never emitted, never zero-filled). */
export interface PriceBar {
  /** Trading date, YYYY-MM-DD in the exchange's time zone. */
  date: string;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  volume: number | null;
  /** 1-based line (CSV) or array index + 1 (JSON) in the raw file, for messages. */
  row: number;
}

/** A split effective at the open of `exDate`; `ratio` is new shares per old share (4 for 4:1). */
export interface SplitEvent {
  exDate: string;
  ratio: number;
}

/** A cash dividend per share, ex on `exDate`, in the units the file gives (see `ParsedPriceFile.adjustment`). */
export interface DividendEvent {
  exDate: string;
  amount: number;
}

/**
 * What the vendor already applied to the OHLCV history:
 * - `none`: as traded.
 * - `split`: back-adjusted for splits up to the download (Yahoo chart/download OHLC and volume; Yahoo's
 *   dividend amounts are split-adjusted the same way). Recoverable with the split list.
 * - `split_dividend`: back-adjusted for splits and dividends (Stooq). Not recoverable: kept and flagged.
 */
export type VendorAdjustment = 'none' | 'split' | 'split_dividend';

/** A problem found while reading a raw file (ragged row, unparseable number…), reported, never hidden. */
export interface ParseIssue {
  code: string;
  row: number;
  message: string;
}

/**
 * The raw formats the raw-dir reader detects from a file's header and shape (docs/decisions/0044):
 * - `yahoo_chart`: Yahoo v8 chart JSON; `yahoo_csv`: Yahoo v7 download `Date,Open,High,Low,Close,Adj Close,Volume`
 *   (OHLC and volume split-adjusted up to the download); `yahoo_ichart_csv`: the pre-2017 download
 *   `Date,Open,High,Low,Close,Volume,Adj Close` (OHLCV as traded, often newest first); `yahoo_events_csv`;
 *   `yfinance_csv`: yfinance's `Datetime|Date,…,Dividends,Stock Splits` (split-adjusted like Yahoo's chart);
 * - `stooq_csv`: Stooq (split- and dividend-adjusted, kept as `pxadj:`); `google_finance_csv`: Google
 *   Finance's `Date,Open,High,Low,Close,Volume` with `31-Dec-10` dates;
 * - `quandl_wiki` (one ticker) and `quandl_wiki_table` (WIKI/PRICES, `ticker` column): raw columns as traded,
 *   `Ex-Dividend` and `Split Ratio` as actions, `Adj.` columns never read;
 * - `zipline_csvdir`: `date,open,high,low,close,volume,dividend,split` (as traded, or already split-adjusted:
 *   told from the bars around each split);
 * - `lean_daily`: QuantConnect/Lean daily equity (headerless, prices × 10000, as traded), with its
 *   `map_files/` and `factor_files/`;
 * - `user_csv`: any CSV with a column mapping from the pipeline.
 */
export type PriceFormat =
  | 'yahoo_chart'
  | 'stooq_csv'
  | 'yahoo_csv'
  | 'yahoo_ichart_csv'
  | 'yahoo_events_csv'
  | 'yfinance_csv'
  | 'google_finance_csv'
  | 'quandl_wiki'
  | 'quandl_wiki_table'
  | 'zipline_csvdir'
  | 'lean_daily'
  | 'lean_factor_file'
  | 'user_csv';

/** A raw price file after parsing, before any adjustment or mapping. Bars are in file order. */
export interface ParsedPriceFile {
  format: PriceFormat;
  /** Vendor symbol as given (AAPL, ^GSPC, BTC-USD). */
  symbol: string | null;
  currency: string | null;
  /** IANA zone the trading dates are in. */
  timeZone: string;
  /** Vendor instrument type when the file says (Yahoo `meta.instrumentType`: EQUITY, ETF, INDEX…). */
  instrumentType: string | null;
  name: string | null;
  bars: PriceBar[];
  splits: SplitEvent[];
  dividends: DividendEvent[];
  /** True when the file's event list is known to include every split in its range. */
  splitsListed: boolean;
  adjustment: VendorAdjustment;
  /** Yahoo `meta.regularMarketTime`: a lower bound for when the file was downloaded. */
  marketTimeMicros: Micros | null;
  issues: ParseIssue[];
}
