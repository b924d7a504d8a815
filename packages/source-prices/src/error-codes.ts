import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/source-prices's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const SOURCE_PRICES_ERRORS = {
  BAD_DIVIDEND: {
    exit: 'warning',
    when: "a price file row's dividend is negative; it is left out",
    fix: 'nothing if expected; fix the row to keep the dividend',
  },
  BAD_EVENT: {
    exit: 'warning',
    when: "a Yahoo events row's value is not a number; the row is skipped",
    fix: 'nothing if expected; fix the row or download again',
  },
  BAD_NUMBER: {
    exit: 'warning',
    when: 'a price file cell is not a number; it is left missing',
    fix: 'nothing if expected; fix the cell to keep the value',
  },
  BAD_SIDECAR: {
    exit: 2,
    when: "a price download's .meta.json sidecar is not JSON or not a valid sidecar",
    fix: 'fix the field the message names, or remove the sidecar',
  },
  BAD_SPLIT: {
    exit: 2,
    when: 'a split ratio is not positive (a split list entry: an error; a price file row: left out)',
    fix: 'give the ratio as a positive number (4 for 4:1)',
  },
  CONFLICTING_SPLITS: {
    exit: 2,
    when: 'two sources give different ratios for one split',
    fix: 'fix one of them',
  },
  LEAN_BAD_DATE: {
    exit: 2,
    when: "a Lean file row's date is not a calendar date",
    fix: 'fix or remove the row',
  },
  LEAN_BAD_NUMBER: { exit: 2, when: 'a Lean file cell is not a number', fix: 'fix or remove the row' },
  LEAN_BAD_ROW: {
    exit: 2,
    when: 'a Lean daily file line is not YYYYMMDD 00:00,open,high,low,close,volume',
    fix: 'fix or remove the row',
  },
  LEAN_FACTOR_BAD_VALUE: {
    exit: 2,
    when: 'a Lean factor file row has a factor ≤ 0',
    fix: 'fix the factor file',
  },
  LEAN_FACTOR_EMPTY: {
    exit: 2,
    when: 'a Lean factor file has no rows',
    fix: 'add its rows or remove the file',
  },
  LEAN_FACTOR_NOT_ASCENDING: {
    exit: 2,
    when: "a Lean factor file's dates are not ascending",
    fix: 'list the rows in ascending date order',
  },
  LEAN_MAP_BAD_TICKER: { exit: 2, when: 'a Lean map file row names no ticker', fix: 'fix the map file' },
  LEAN_MAP_EMPTY: { exit: 2, when: 'a Lean map file has no rows', fix: 'add its rows or remove the file' },
  LEAN_MAP_NOT_ASCENDING: {
    exit: 2,
    when: "a Lean map file's dates are not ascending",
    fix: 'list the rows in ascending date order',
  },
  LEAN_SECURITY_SYMBOL_CLASH: {
    exit: 2,
    when: 'two Lean securities would both get one symbol',
    fix: "number the retired one's map file (<ticker>.1.csv), as Lean does",
  },
  LEAN_ZIPPED_DAILY: {
    exit: 2,
    when: 'a Lean daily file is zipped; asof reads them extracted',
    fix: 'unzip it and remove the zip',
  },
  MEMBERSHIP_CSV_ALREADY_MEMBER: {
    exit: 2,
    when: 'a membership row adds an entity that is already a member',
    fix: 'remove the duplicate addition',
  },
  MEMBERSHIP_CSV_BAD_ACTION: {
    exit: 2,
    when: "a membership row's action is not add or remove",
    fix: 'write add or remove',
  },
  MEMBERSHIP_CSV_BAD_DATE: {
    exit: 2,
    when: "a membership row's date is not a calendar date YYYY-MM-DD (or end_date is not after start_date)",
    fix: 'fix the date',
  },
  MEMBERSHIP_CSV_BAD_ENTITY: {
    exit: 2,
    when: "a membership row's entity id is not an entity id (ticker:AAPL, a 10-digit CIK)",
    fix: 'fix the id',
  },
  MEMBERSHIP_CSV_BAD_INSTANT: {
    exit: 2,
    when: "a membership row's announced time is neither a date nor an instant with a zone",
    fix: 'write YYYY-MM-DD or an instant with its zone',
  },
  MEMBERSHIP_CSV_BAD_UNIVERSE: {
    exit: 2,
    when: "a membership row's universe is not a universe name, or is the reserved listing universe",
    fix: 'name the index (e.g. sp500)',
  },
  MEMBERSHIP_CSV_MISSING_COLUMN: {
    exit: 2,
    when: "the membership file's header lacks a required column",
    fix: 'give the header the columns the message lists',
  },
  MEMBERSHIP_CSV_NOT_MEMBER: {
    exit: 2,
    when: 'a membership row removes an entity no earlier line adds',
    fix: "list its addition (an initial member: add it at the file's first date)",
  },
  MEMBERSHIP_CSV_NO_ROWS: {
    exit: 2,
    when: 'the membership file has a header but no changes',
    fix: 'add one row per addition and removal, or remove the file from prices.membership',
  },
  MEMBERSHIP_CSV_NO_UNIVERSE: {
    exit: 2,
    when: 'a membership file does not name its index',
    fix: 'give the universe (e.g. sp500) in the options, or put it in the file name',
  },
  MEMBERSHIP_CSV_RAGGED: {
    exit: 2,
    when: 'a membership row has more or fewer fields than the header',
    fix: 'quote a field that holds a comma',
  },
  MEMBERSHIP_CSV_SAME_INSTANT: {
    exit: 2,
    when: 'two changes of one entity in one universe are announced at the same instant',
    fix: 'keep one, or give each its own announcement time',
  },
  MEMBERSHIP_CSV_UNKNOWN_SHAPE: {
    exit: 2,
    when: "the membership file's header matches no known membership layout",
    fix: 'use one of the layouts the message lists',
  },
  MEMBERSHIP_CSV_UNREADABLE: {
    exit: 2,
    when: 'the membership file cannot be read',
    fix: 'fix prices.membership in the pipeline',
  },
  MEMBERSHIP_SNAPSHOT_NO_DATE: {
    exit: 2,
    when: 'a constituents snapshot has no date',
    fix: 'put it in the file name (…_2025-11-16.csv) or give snapshotDate',
  },
  MIXED_ADJUSTMENT: {
    exit: 2,
    when: "one symbol's downloads mix vendor-adjusted and recoverable histories",
    fix: 'map them separately (they become different series)',
  },
  NON_POSITIVE_DIVIDEND: {
    exit: 'warning',
    when: 'a Yahoo chart dividend is not positive; it is skipped',
    fix: 'nothing if expected',
  },
  NO_DOWNLOADS: {
    exit: 2,
    when: 'mapPricesToAtomic was called with no downloads',
    fix: 'a bug in the caller: pass at least one download',
  },
  PRICES_BAD_SYMBOL: {
    exit: 2,
    when: "a price file's symbol cannot name a series",
    fix: 'fix the symbol, or give "symbol" in its .meta.json sidecar',
  },
  PRICES_DIVIDEND_MISMATCH: {
    exit: 'warning',
    when: 'two downloads give different amounts for one dividend; the first is kept',
    fix: "nothing if expected; check the vendor's dividend history",
  },
  PRICES_DOWNLOAD_TIME_ASSUMED: {
    exit: 'warning',
    when: 'a price file records no download date; one was assumed from its last bar',
    fix: 'record the download date (.meta.json sidecar or dl-YYYY-MM-DD in the file name)',
  },
  PRICES_DOWNLOAD_TIME_INFERRED: {
    exit: 'warning',
    when: 'a price file records no download date; it was inferred from a split its closes match',
    fix: 'record the download date (.meta.json sidecar or dl-YYYY-MM-DD in the file name)',
  },
  PRICES_EXTREME_RETURN: {
    exit: 'warning',
    when: 'daily returns beyond ±50% with no split; a missing split looks like this',
    fix: 'check the split list; add the split if one is missing',
  },
  PRICES_FILE_SKIPPED: {
    exit: 'warning',
    when: 'a price file in the raw folder was skipped (the message gives the reason)',
    fix: 'fix or remove the file if it should be read',
  },
  PRICES_LEAN_NO_FACTOR_FILE: {
    exit: 'warning',
    when: 'a Lean security has no factor file, so its splits and dividends are unknown',
    fix: 'add factor_files/<ticker>.csv',
  },
  PRICES_LEAN_NO_MAP_FILE: {
    exit: 'warning',
    when: 'no Lean map file names a ticker, so its bars are read as one security',
    fix: 'add map_files/<ticker>.csv',
  },
  PRICES_LEAN_UNMAPPED_BARS: {
    exit: 'warning',
    when: 'a Lean ticker has bars on dates no map file gives it',
    fix: "fix the map file's date ranges",
  },
  PRICES_SPLITS_AFTER_RANGE_UNKNOWN: {
    exit: 'warning',
    when: 'split-adjusted bars downloaded after their range: splits after the range are unknown',
    fix: 'supply the splits (sidecar .meta.json "splits" or known_splits in the pipeline)',
  },
  PRICES_SPLITS_UNVERIFIED: {
    exit: 'warning',
    when: 'split-adjusted history without a split list: as-traded values assume no splits',
    fix: 'supply the splits (sidecar .meta.json "splits" or known_splits in the pipeline)',
  },
  PRICES_SPLIT_ALREADY_ADJUSTED: {
    exit: 'warning',
    when: "the bars are already divided by the split column's splits",
    fix: 'nothing: asof does not divide them again',
  },
  PRICES_SPLIT_OVERRIDDEN: {
    exit: 'warning',
    when: 'a download lists a split ratio that another source overrides',
    fix: 'nothing if the override is right; otherwise fix the split list',
  },
  PRICES_UNKNOWN_FORMAT: {
    exit: 2,
    when: 'a file in the prices raw folder is no known price file format',
    fix: 'remove it from the folder, or give it a column mapping (userCsv)',
  },
  PRICES_VENDOR_ADJUSTED: {
    exit: 'warning',
    when: 'a price history is back-adjusted by the vendor and cannot be turned into as-traded prices',
    fix: 'nothing if expected; use an unadjusted download for as-traded series',
  },
  PRICES_VINTAGE_CONFLICT: {
    exit: 'warning',
    when: 'two downloads at the same or earlier instant give different values; the first is kept',
    fix: 'nothing if expected; check which download is right',
  },
  RAGGED_ROW: {
    exit: 2,
    when: 'a price file row has more or fewer fields than the header (an error, or in report mode a counted row issue)',
    fix: "fix or remove the row, or read with raggedRows: 'report'",
  },
  RAW_DIR_UNREADABLE: {
    exit: 2,
    when: 'the prices raw folder cannot be listed',
    fix: 'pass a folder of raw price files',
  },
  STOOQ_BAD_DATE: {
    exit: 2,
    when: "a Stooq row's date is not a calendar date",
    fix: 'fix or remove the row',
  },
  STOOQ_BAD_HEADER: {
    exit: 2,
    when: "a Stooq file's first line is not Date,Open,High,Low,Close,Volume",
    fix: 'download the file again, or give it a column mapping',
  },
  STOOQ_IMPLAUSIBLE_VALUE: {
    exit: 2,
    when: 'a Stooq value is implausible (beyond what a price can be)',
    fix: 'fix or remove the row',
  },
  STOOQ_NO_ROWS: {
    exit: 2,
    when: 'a Stooq file has a header but no rows (a symbol or range without bars)',
    fix: 'check the symbol and range, or remove the file',
  },
  USER_CSV_BAD_DATE: {
    exit: 2,
    when: "a user CSV row's date is not a calendar date",
    fix: 'fix or remove the row, or set the date format in the column mapping',
  },
  USER_CSV_BAD_SYMBOL: {
    exit: 2,
    when: 'a row of a several-ticker file names no ticker',
    fix: 'every row of a several-ticker file names its ticker',
  },
  USER_CSV_IMPLAUSIBLE_VALUE: {
    exit: 2,
    when: 'a user CSV value is implausible (beyond what a price can be)',
    fix: 'fix or remove the row',
  },
  USER_CSV_MISSING_COLUMN: {
    exit: 2,
    when: 'the column mapping names a column the header does not have',
    fix: 'fix the mapping in the pipeline',
  },
  USER_CSV_NO_ROWS: {
    exit: 2,
    when: 'a user CSV has a header but no rows',
    fix: 're-download it or remove the file',
  },
  USER_CSV_SEVERAL_SYMBOLS: {
    exit: 2,
    when: 'a single-ticker read met a file whose ticker column names several symbols',
    fix: 'read it with parseUserCsvBySymbol',
  },
  YAHOO_BAD_JSON: { exit: 2, when: 'a Yahoo chart file is not valid JSON', fix: 'download it again' },
  YAHOO_BAD_PAYLOAD: {
    exit: 2,
    when: 'a Yahoo chart response does not match the v8 chart shape',
    fix: 'download it again, or supply the JSON file',
  },
  YAHOO_CHART_ERROR: {
    exit: 2,
    when: 'Yahoo returned an error instead of chart data',
    fix: 'check the symbol, then download again',
  },
  YAHOO_EVENTS_BAD_DATE: {
    exit: 2,
    when: "a Yahoo events row's date is not a calendar date",
    fix: 'fix or remove the row',
  },
  YAHOO_EVENTS_BAD_HEADER: {
    exit: 2,
    when: "a Yahoo events file's first line is neither Date,Stock Splits nor Date,Dividends",
    fix: 'download the events file again',
  },
  YAHOO_EVENTS_IMPLAUSIBLE_VALUE: {
    exit: 2,
    when: 'a Yahoo events value is implausible',
    fix: 'fix or remove the row',
  },
  YAHOO_IMPLAUSIBLE_VALUE: {
    exit: 2,
    when: 'a Yahoo chart value is implausible',
    fix: 're-download the chart',
  },
  YAHOO_LENGTH_MISMATCH: {
    exit: 2,
    when: "a Yahoo chart's quote arrays and timestamps have different lengths",
    fix: 'download the chart again',
  },
  YAHOO_NOTHING_DOWNLOADED: {
    exit: 1,
    when: 'none of the Yahoo symbols could be downloaded',
    fix: 'check the symbols and the network, then run again',
  },
  YAHOO_NOT_JSON: {
    exit: 2,
    when: 'a Yahoo chart download is an HTML page (the site refused or redirected)',
    fix: 'download again, or supply the JSON file',
  },
  YAHOO_NO_RESULT: {
    exit: 2,
    when: 'a Yahoo chart response has no result for the symbol',
    fix: 'check the symbol and download again',
  },
  YAHOO_REFUSED: {
    exit: 1,
    when: 'a Yahoo chart download failed',
    fix: 'run again later, or run offline from the cache',
  },
  YAHOO_UNREACHABLE: {
    exit: 1,
    when: 'Yahoo could not be reached (no network connection)',
    fix: 'connect, or run offline from the cache',
  },
  ZIPLINE_MIXED_SPLIT_ADJUSTMENT: {
    exit: 2,
    when: "the bars are adjusted for some of the split column's splits and not for others",
    fix: 'split-adjust the file consistently (or not at all)',
  },
} as const satisfies ErrorCatalogue;
