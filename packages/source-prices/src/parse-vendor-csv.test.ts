import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CollectingSink } from '@asof/schema';
import { afterAll, describe, expect, it } from 'vitest';
import { ingestPricesRawDir } from './ingest-prices-raw-dir.ts';
import {
  detectCsvPriceFormat,
  parseVendorCsv,
  symbolFromFileName,
  ziplineSplitAdjustment,
} from './parse-vendor-csv.ts';

const root = mkdtempSync(join(tmpdir(), 'asof-vendor-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
function dirWith(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  mkdirSync(dir);
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  return dir;
}

// A few lines of each vendor's shape (hand-made, same headers as the real files).
const QUANDL =
  'Date,Open,High,Low,Close,Volume,Ex-Dividend,Split Ratio,Adj. Open,Adj. High,Adj. Low,Adj. Close,Adj. Volume\n' +
  '2009-07-02,22.0,22.5,21.0,21.5,1000.0,0.0,1.0,9,9,9,9,9\n' +
  '2009-07-01,23.0,24.0,22.0,23.5,2000.0,0.0,0.05,9,9,9,9,9\n' +
  '2009-06-30,1.13,1.2,1.1,1.16,40000.0,0.0,1.0,9,9,9,9,9\n';
const QUANDL_TABLE =
  'ticker,date,open,high,low,close,volume,ex-dividend,split_ratio,adj_open,adj_high,adj_low,adj_close,adj_volume\n' +
  'AAA,2014-06-06,10,11,9,10.5,100.0,0.0,1.0,1,1,1,1,1\n' +
  'AAA,2014-06-09,1.5,1.6,1.4,1.55,700.0,0.0,7.0,1,1,1,1,1\n' +
  'BRK_A,2014-06-06,190000,191000,189000,190500,300.0,0.0,1.0,1,1,1,1,1\n';
const ZIPLINE_ADJUSTED =
  'date,open,high,low,close,volume,dividend,split\n' +
  '2014-06-05,92.3,92.7,91.8,92.478569,75951400,0.0,1.0\n' +
  '2014-06-06,92.8,93.0,92.0,92.224289,87484600,0.47,1.0\n' +
  '2014-06-09,92.699997,93.879997,91.75,93.699997,75415000,0.0,7.0\n';
const YFINANCE =
  'Datetime,Open,High,Low,Close,Adj Close,Volume,Dividends,Stock Splits\n' +
  '2022-01-31 00:00:00-05:00,38.0,38.5,37.5,38.2,33.0,700000,0.0,0.0\n' +
  '2022-02-01 00:00:00-05:00,38.1,38.9,38.0,38.8,33.6,650000,0.0335,0.0\n';
const GOOGLE =
  'Date,Open,High,Low,Close,Volume\n31-Dec-10,31.22,31.33,30.93,31.30,11716389\n30-Dec-10,31.45,31.58,31.21,31.29,12989495\n';
const ICHART_DESC =
  'Date,Open,High,Low,Close,Volume,Adj Close\n' +
  '2000-01-19,56.13,58.25,54.00,57.13,49208800,27.93\n' +
  '2000-01-18,107.87,114.50,105.62,111.25,66791200,27.19\n' +
  '2000-01-14,109.00,111.37,104.75,106.81,57099200,26.11\n';

describe('detectCsvPriceFormat', () => {
  it('tells each vendor shape from its header and first row', () => {
    expect(detectCsvPriceFormat(QUANDL)).toBe('quandl_wiki');
    expect(detectCsvPriceFormat(QUANDL_TABLE)).toBe('quandl_wiki_table');
    expect(detectCsvPriceFormat(ZIPLINE_ADJUSTED)).toBe('zipline_csvdir');
    expect(detectCsvPriceFormat(YFINANCE)).toBe('yfinance_csv');
    expect(detectCsvPriceFormat(GOOGLE)).toBe('google_finance_csv');
    expect(detectCsvPriceFormat(ICHART_DESC)).toBe('yahoo_ichart_csv');
    expect(detectCsvPriceFormat('Date,Open,High,Low,Close,Adj Close,Volume\n2020-01-02,1,1,1,1,1,1\n')).toBe(
      'yahoo_csv',
    );
    expect(detectCsvPriceFormat('Date,Open,High,Low,Close,Volume\r\n2020-01-02,1,1,1,1,1\r\n')).toBe(
      'stooq_csv',
    );
    expect(detectCsvPriceFormat('19980102 00:00,136300,162500,135000,162500,6315000')).toBe('lean_daily');
    expect(detectCsvPriceFormat('date,return\n1993-02-01 00:00:00+00:00,0.007\n')).toBe(
      'zipline_benchmark_returns',
    );
    expect(detectCsvPriceFormat('Ticker,Name\nABC,Abc\n')).toBeNull();
  });

  it('finds the symbol in vendor file names', () => {
    expect(symbolFromFileName('quandl_wiki_AIG_2009_reverse_split_1for20_2009-07-01.csv')).toBe('AIG');
    expect(symbolFromFileName('lean_algoseek_daily_raw_x10000_FB.csv')).toBe('FB');
    expect(symbolFromFileName('yahoo_csv_N225_2010.csv')).toBe('N225');
    expect(symbolFromFileName('googlefinance_csv_ORCL_2010_dd-Mon-yy.csv')).toBe('ORCL');
    expect(symbolFromFileName('aapl.csv')).toBe('AAPL');
    expect(symbolFromFileName('BRK.B.csv')).toBe('BRK.B');
  });
});

describe('parseVendorCsv', () => {
  it('Quandl WIKI: raw columns as traded, Split Ratio 0.05 as a 1:20 reverse split, Adj. columns never read, newest first is fine', () => {
    const [p] = parseVendorCsv('quandl_wiki', QUANDL, 'q.csv', 'AIG');
    expect(p.adjustment).toBe('none');
    expect(p.splits).toEqual([{ exDate: '2009-07-01', ratio: 0.05 }]);
    expect(p.bars.map((b) => [b.date, b.close, b.volume])).toEqual([
      ['2009-07-02', 21.5, 1000],
      ['2009-07-01', 23.5, 2000],
      ['2009-06-30', 1.16, 40000],
    ]);
  });

  it('Quandl WIKI/PRICES table: one parsed file per ticker, rows keep their line numbers', () => {
    const files = parseVendorCsv('quandl_wiki_table', QUANDL_TABLE, 't.csv', null);
    expect(files.map((f) => [f.symbol, f.bars.map((b) => b.row), f.splits])).toEqual([
      ['AAA', [2, 3], [{ exDate: '2014-06-09', ratio: 7 }]],
      ['BRK_A', [4], []],
    ]);
  });

  it('yfinance: Datetime with -05:00 offsets is the trading date, Dividends and Stock Splits (0.0 = none) are events', () => {
    const [p] = parseVendorCsv('yfinance_csv', YFINANCE, 'y.csv', 'CALM');
    expect(p.bars.map((b) => b.date)).toEqual(['2022-01-31', '2022-02-01']);
    expect(p.dividends).toEqual([{ exDate: '2022-02-01', amount: 0.0335 }]);
    expect(p.splits).toEqual([]);
    expect(p.bars[0].close).toBe(38.2); // Close, not Adj Close
  });

  it('Google Finance: 31-Dec-10 dates', () => {
    const [p] = parseVendorCsv('google_finance_csv', GOOGLE, 'g.csv', 'ORCL');
    expect(p.bars.map((b) => b.date)).toEqual(['2010-12-31', '2010-12-30']);
  });

  it('zipline csvdir: a split whose ex-date close barely moves was already applied; one that moves by the ratio was not', () => {
    const [p] = parseVendorCsv('zipline_csvdir', ZIPLINE_ADJUSTED, 'z.csv', 'AAPL');
    expect(p.adjustment).toBe('split');
    const raw = [
      { date: '2014-06-06', open: 1, high: 1, low: 1, close: 645.57, volume: 1, row: 2 },
      { date: '2014-06-09', open: 1, high: 1, low: 1, close: 93.7, volume: 1, row: 3 },
    ];
    expect(ziplineSplitAdjustment(raw, [{ exDate: '2014-06-09', ratio: 7 }], 'r.csv')).toBe('none');
  });
});

describe('ingestPricesRawDir on vendor files', () => {
  it('zipline csvdir already split-adjusted: undone once (7 × the file close), the split kept once, a warning names the file', () => {
    const sink = new CollectingSink();
    const r = ingestPricesRawDir(dirWith('zipline', { 'AAPL.csv': ZIPLINE_ADJUSTED }), sink);
    expect(r.files.map((f) => [f.file, f.format, f.symbol])).toEqual([
      ['AAPL.csv', 'zipline_csvdir', 'AAPL'],
    ]);
    const close = sink.observations.filter((o) => o.series_id === 'px:AAPL:close').map((o) => o.value);
    expect(close).toEqual([92.478569 * 7, 92.224289 * 7, 93.699997]);
    const volume = sink.observations.filter((o) => o.series_id === 'px:AAPL:volume').map((o) => o.value);
    expect(volume).toEqual([Math.round(75951400 / 7), Math.round(87484600 / 7), 75415000]);
    expect(sink.corporateActions.map((c) => [c.kind, c.ex_date, c.value])).toEqual([
      ['split', '2014-06-09', 7],
      ['dividend', '2014-06-06', 0.47 * 7],
    ]);
    expect(sink.warnings.find((w) => w.code === 'PRICES_SPLIT_ALREADY_ADJUSTED')?.message).toMatch(
      /^AAPL\.csv: /,
    );
  });

  it('Yahoo pre-2017 download newest first gives the same rows as an ascending copy', () => {
    const asc = [ICHART_DESC.split('\n')[0], ...ICHART_DESC.trim().split('\n').slice(1).reverse()].join('\n');
    const rows = (text: string, name: string) => {
      const sink = new CollectingSink();
      ingestPricesRawDir(dirWith(name, { 'yahoo_csv_ORCL_2000.csv': text }), sink);
      return sink.observations.map(({ source_ref: _, ...o }) => o);
    };
    const desc = rows(ICHART_DESC, 'desc');
    expect(desc.length).toBe(15);
    expect(rows(asc, 'asc')).toEqual(desc);
    // As traded: the 2000-01-19 2:1 split shows in the closes (111.25 → 57.13); Adj Close is not read.
    expect(desc.filter((o) => o.series_id === 'px:ORCL:close').map((o) => o.value)).toEqual([
      106.81, 111.25, 57.13,
    ]);
  });

  it('a zipline benchmark of returns is recognised, accounted as out of scope and not mapped', () => {
    const sink = new CollectingSink();
    const r = ingestPricesRawDir(
      dirWith('bench', {
        'spy_returns.csv': 'date,return\n1993-02-01 00:00:00+00:00,0.007\n1993-02-02 00:00:00+00:00,0.002\n',
        'AAPL.csv': ZIPLINE_ADJUSTED,
      }),
      sink,
    );
    expect(r.skipped.map((s) => s.file)).toEqual(['spy_returns.csv']);
    expect(r.accounting.find((a) => a.file === 'spy_returns.csv')).toMatchObject({
      read: 2,
      mapped: 0,
      dropped: { out_of_scope: 2 },
    });
  });
});
