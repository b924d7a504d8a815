import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CollectingSink } from '@asof/schema';
import { afterAll, describe, expect, it } from 'vitest';
import { generateSyntheticYahooCharts } from './generate-synthetic-yahoo-charts.ts';
import { ingestPricesRawDir, latestBarDate } from './ingest-prices-raw-dir.ts';
import { parseStooqCsv } from './parse-stooq-csv.ts';
import { parseUserCsv } from './parse-user-csv.ts';
import { parseYahooChart } from './parse-yahoo-chart.ts';
import { parseYahooEventsCsv } from './parse-yahoo-events-csv.ts';

const root = mkdtempSync(join(tmpdir(), 'asof-price-checks-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
function dirWith(files: Record<string, string>): string {
  const dir = join(root, `d${n++}`);
  mkdirSync(dir);
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  return dir;
}

const HEADER = 'Date,Open,High,Low,Close,Volume';
/** A Stooq file's data lines in three orders: as downloaded, newest first, and with an older row appended. */
function orders(lines: string[]): Record<string, string[]> {
  return { forwards: lines, reversed: [...lines].reverse(), appended: [...lines, lines[1]] };
}

/** available_at of every vendor-adjusted row, keyed by series and timestamp, for a file read as `lines`. */
function availability(file: string, lines: string[]): Map<string, number> {
  const sink = new CollectingSink();
  const r = ingestPricesRawDir(dirWith({ [file]: `${HEADER}\r\n${lines.join('\r\n')}\r\n` }), sink);
  expect(r.files[0].downloadedAtSource).toBe('last_bar');
  const out = new Map<string, number>();
  for (const o of sink.observations) out.set(`${o.series_id}@${o.timestamp}`, o.available_at);
  return out;
}

describe('price download time comes from the latest bar date, whatever the row order', () => {
  const lines = [
    '2021-03-01,10,11,9,10.5,100',
    '2021-03-02,10.5,11,10,10.8,120',
    '2021-03-03,10.8,11.2,10.1,11,90',
    '2021-03-04,11,11.5,10.9,11.2,110',
  ];

  it('gives every bar of a hand-made Stooq file the same available_at forwards, reversed and with an older row appended', () => {
    const got = Object.entries(orders(lines)).map(
      ([order, rows]) => [order, availability('abc_us_d.csv', rows)] as const,
    );
    const [, forwards] = got[0];
    expect(forwards.size).toBe(20); // 4 bars × 5 fields
    // Stooq levels embed adjustments known only at download: no bar is available before the download,
    // which is the end of the newest bar's day (2021-03-04 23:59:59.999999 New York).
    const download = Date.UTC(2021, 2, 5, 4, 59, 59, 999) * 1000 + 999;
    for (const at of forwards.values()) expect(at).toBe(download);
    for (const [order, map] of got) expect([...map], order).toEqual([...forwards]);
  });

  it('latestBarDate ignores file order and falls back to events', () => {
    const p = parseStooqCsv(`${HEADER}\n${[...lines].reverse().join('\n')}\n`, 'x.csv');
    expect(p.bars[0].date).toBe('2021-03-04');
    expect(p.bars.at(-1)?.date).toBe('2021-03-01');
    expect(latestBarDate(p)).toBe('2021-03-04');
    expect(
      latestBarDate({
        bars: [],
        splits: [{ exDate: '2020-01-02', ratio: 2 }],
        dividends: [{ exDate: '2021-05-06', amount: 1 }],
      }),
    ).toBe('2021-05-06');
  });

  const real = fileURLToPath(
    new URL(
      '../../../../shared/fixtures/real/prices/stooq_aapl_us_d_1984-09-07_2019-05-03.csv',
      import.meta.url,
    ),
  );
  it.skipIf(!existsSync(real))(
    'does the same on the real Stooq AAPL file (needs ../shared/fixtures/real)',
    () => {
      const realLines = readFileSync(real, 'utf8').split(/\r?\n/).slice(1).filter(Boolean);
      const got = Object.entries(orders(realLines)).map(
        ([order, rows]) => [order, availability('stooq_aapl_us_d.csv', rows)] as const,
      );
      const [, forwards] = got[0];
      expect(forwards.size).toBeGreaterThan(40_000);
      for (const [order, map] of got) expect([...map], order).toEqual([...forwards]);
    },
    60_000,
  );
});

describe('price files: strict dates, plausible values, no empty files, clean symbols', () => {
  it('refuses an impossible date naming file, line and field (no rollover to the next month)', () => {
    expect(() =>
      parseStooqCsv(`${HEADER}\n2020-04-30,1,1,1,1,1\n2020-04-31,1,1,1,1,1\n`, 'aapl_us_d.csv'),
    ).toThrow(
      'aapl_us_d.csv line 3, field date: "2020-04-31" is not a calendar date (April 2020 has 30 days)',
    );
    expect(() =>
      parseUserCsv(
        'day,px\n31.04.2020,5\n',
        { columns: { date: 'day', close: 'px' }, dateFormat: 'DD.MM.YYYY' },
        'mine.csv',
      ),
    ).toThrow('mine.csv line 2, field day: "31.04.2020" is not a calendar date (April 2020 has 30 days)');
    expect(() => parseYahooEventsCsv('Date,Dividends\n2021-02-29,0.5\n', 'div.csv')).toThrow(
      /div\.csv line 2, field Date: "2021-02-29" is not a calendar date \(February 2021 has 28 days\)/,
    );
  });

  it('refuses a finite but absurd value naming file, line and field', () => {
    expect(() => parseStooqCsv(`${HEADER}\n2020-04-30,1,1,1,1e300,1\n`, 'aapl_us_d.csv')).toThrow(
      /^aapl_us_d\.csv line 2, field Close: 1e\+300 is beyond ±1e15/,
    );
    expect(() =>
      parseUserCsv('Date,Close\n2020-04-30,-2e15\n', { columns: { date: 'Date', close: 'Close' } }, 'u.csv'),
    ).toThrow(/^u\.csv line 2, field Close: -2000000000000000 is beyond ±1e15/);
    // The largest real volumes and prices pass.
    expect(parseStooqCsv(`${HEADER}\n2020-04-30,1,1,1,1,999999999999\n`, 'a.csv').bars[0].volume).toBe(
      999999999999,
    );
    const [chart] = generateSyntheticYahooCharts({ seed: 1, from: '2021-06-01', to: '2021-06-10' });
    const json = JSON.parse(chart.text);
    json.chart.result[0].indicators.quote[0].close[2] = 1e300;
    expect(() => parseYahooChart(JSON.stringify(json), 'c.json')).toThrow(
      /^c\.json: indicators\.quote\[0\]\.close\[2\] \(2021-06-0\d\): 1e\+300 is beyond ±1e15/,
    );
    json.chart.result[0].timestamp[1] = 1e12;
    expect(() => parseYahooChart(JSON.stringify(json), 'c.json')).toThrow(
      /c\.json: .*timestamp\.1: timestamp is after 2100-01-01/,
    );
  });

  it('refuses a header-only data file', () => {
    expect(() => parseStooqCsv(`${HEADER}\r\n`, 'empty_us_d.csv')).toThrow(
      /^empty_us_d\.csv: the file has a header but no data rows/,
    );
    expect(() =>
      parseUserCsv('Date,Close\n\n', { columns: { date: 'Date', close: 'Close' } }, 'u.csv'),
    ).toThrow(/^u\.csv: the file has a header but no data rows/);
    const dir = dirWith({ 'abc_us_d_dl-2021-03-05.csv': `${HEADER}\n` });
    expect(() => ingestPricesRawDir(dir, new CollectingSink())).toThrow(
      /abc_us_d_dl-2021-03-05\.csv: the file has a header but no data rows/,
    );
    // A Yahoo events file with no rows is a real answer ("no splits"), not an empty download.
    expect(parseYahooEventsCsv('Date,Stock Splits\n', 's.csv').splits).toEqual([]);
  });

  it('checks download dates from sidecars and file names strictly, naming the file', () => {
    const row = '2021-03-01,10,11,9,10.5,100';
    expect(() =>
      ingestPricesRawDir(
        dirWith({ 'abc_us_d_dl-2021-02-30.csv': `${HEADER}\n${row}\n` }),
        new CollectingSink(),
      ),
    ).toThrow(
      /abc_us_d_dl-2021-02-30\.csv: download date in the file name: "2021-02-30" is not a calendar date/,
    );
    expect(() =>
      ingestPricesRawDir(
        dirWith({
          'abc_us_d.csv': `${HEADER}\n${row}\n`,
          'abc_us_d.meta.json': JSON.stringify({ download_date: '2021-04-31' }),
        }),
        new CollectingSink(),
      ),
    ).toThrow(
      /abc_us_d\.meta\.json: not a valid price download sidecar: download_date: "2021-04-31" is not a calendar date \(April 2021 has 30 days\)/,
    );
    expect(() =>
      ingestPricesRawDir(
        dirWith({
          'abc_us_d.csv': `${HEADER}\n${row}\n`,
          'abc_us_d.meta.json': JSON.stringify({ downloaded_at: '2021-03-05T10:00:00' }),
        }),
        new CollectingSink(),
      ),
    ).toThrow(
      /abc_us_d\.meta\.json: not a valid price download sidecar: downloaded_at: .*it has no time zone/,
    );
  });

  it('refuses a symbol with control characters, naming the file it came from', () => {
    const row = '2021-03-01,10,11,9,10.5,100';
    const dir = dirWith({
      'abc_us_d.csv': `${HEADER}\n${row}\n`,
      'abc_us_d.meta.json': JSON.stringify({ symbol: 'AB\u0007C\u009b' }),
    });
    expect(() => ingestPricesRawDir(dir, new CollectingSink())).toThrow(
      'abc_us_d.csv: symbol "AB\\u0007C\\u009b" (from its .meta.json sidecar) cannot name a series: it contains a control character',
    );
    const [chart] = generateSyntheticYahooCharts({ seed: 1, from: '2021-06-01', to: '2021-06-10' });
    const json = JSON.parse(chart.text);
    json.chart.result[0].meta.symbol = 'EVIL\nX';
    expect(() =>
      ingestPricesRawDir(dirWith({ 'evil.json': JSON.stringify(json) }), new CollectingSink()),
    ).toThrow(/^evil\.json: symbol "EVIL\\u000aX" \(from the chart's meta\.symbol\) cannot name a series/);
  });
});
