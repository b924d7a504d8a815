import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isoToMicros, microsToIso } from '@asof/calendar';
import { CollectingSink } from '@asof/schema';
import { afterAll, describe, expect, it } from 'vitest';
import { generateSyntheticYahooCharts } from './generate-synthetic-yahoo-charts.ts';
import { ingestPricesRawDir, summarizePriceQuality } from './ingest-prices-raw-dir.ts';

const root = mkdtempSync(join(tmpdir(), 'asof-prices-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function dirWith(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  mkdirSync(dir);
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  return dir;
}

const stooq = (rows: string[]) => `Date,Open,High,Low,Close,Volume\r\n${rows.join('\r\n')}\r\n`;

describe('ingestPricesRawDir', () => {
  it('reads Yahoo JSON with its sidecar and Stooq CSV by file name, and refuses a CSV of no known format', () => {
    const [chart] = generateSyntheticYahooCharts({ seed: 7, from: '2021-01-04', to: '2021-03-31' }).filter(
      (c) => c.symbol === 'SYNB',
    );
    const dir = dirWith('mixed', {
      [chart.fileName]: chart.text,
      [chart.fileName.replace(/\.json$/, '.meta.json')]: JSON.stringify(chart.meta),
      'abc_us_d_dl-2021-03-05.csv': stooq(['2021-03-01,10,11,9,10.5,100', '2021-03-02,10.5,11,10,10.8,120']),
    });
    const sink = new CollectingSink();
    const r = ingestPricesRawDir(dir, sink);
    expect(r.files.map((f) => [f.file, f.symbol, f.format, f.downloadedAtSource])).toEqual([
      ['SYNB_dl-2025-01-15.json', 'SYNB', 'yahoo_chart', 'sidecar'],
      ['abc_us_d_dl-2021-03-05.csv', 'ABC', 'stooq_csv', 'file_name'],
    ]);
    // A date-only download is known by the end of that New York day.
    expect(r.files[1].downloadedAt).toBe('2021-03-06T04:59:59.999999Z');
    expect(r.skipped).toEqual([]);
    // Every bar of every input is accounted for.
    expect(r.accounting.map((a) => [a.file, a.record, a.read, a.mapped])).toEqual([
      ['SYNB_dl-2025-01-15.json', 'bar', r.files[0].bars, r.files[0].bars],
      ['abc_us_d_dl-2021-03-05.csv', 'bar', 2, 2],
    ]);
    expect(sink.accounting).toEqual(r.accounting);
    // A CSV of no known format is an error (exit 2) naming the file and the formats known.
    const unknown = dirWith('unknown', { 'notes.csv': 'Ticker,Name\nABC,Abc Corp\n' });
    expect(() => ingestPricesRawDir(unknown, new CollectingSink())).toThrow(
      expect.objectContaining({
        code: 'PRICES_UNKNOWN_FORMAT',
        message: expect.stringMatching(
          /^notes\.csv: not a known price file format \(line 1 is "Ticker,Name"\); known formats: Yahoo v8 chart JSON/,
        ),
      }),
    );
    // The sidecar is an input too: it dates the file's bars (and could name its symbol, kind or splits).
    expect(sink.inputs.map((i) => [i.source, i.key, i.sha256.length])).toEqual([
      ['prices:yahoo', 'SYNB_dl-2025-01-15.json', 64],
      ['prices:sidecar', 'SYNB_dl-2025-01-15.meta.json', 64],
      ['prices:stooq', 'abc_us_d_dl-2021-03-05.csv', 64],
    ]);
    expect(r.vendorAdjustedSeriesIds).toEqual([
      'pxadj:ABC:open',
      'pxadj:ABC:high',
      'pxadj:ABC:low',
      'pxadj:ABC:close',
      'pxadj:ABC:volume',
    ]);
    // Vendor-adjusted values become available at the download, not at the 2021-03-01 close.
    const abc = sink.observations.find((o) => o.series_id === 'pxadj:ABC:close')!;
    expect(microsToIso(abc.available_at)).toBe('2021-03-06T04:59:59.999999Z');
    expect(abc.available_at_basis).toBe('vintage');
    expect(sink.series.find((s) => s.series_id === 'px:SYNB:close')?.detail_category).toBe(
      'Equity OHLCV Close',
    );
  });

  it('warns when it has to guess the download date, and names a bad sidecar field', () => {
    const sink = new CollectingSink();
    const r = ingestPricesRawDir(
      dirWith('guess', { 'xyz_us_d.csv': stooq(['2021-03-01,10,11,9,10.5,100']) }),
      sink,
    );
    expect(r.files[0].downloadedAtSource).toBe('last_bar');
    expect(sink.warnings.find((w) => w.code === 'PRICES_DOWNLOAD_TIME_ASSUMED')?.message).toContain(
      'xyz_us_d.csv',
    );
    const bad = dirWith('bad', {
      'xyz_us_d.csv': stooq(['2021-03-01,10,11,9,10.5,100']),
      'xyz_us_d.meta.json': JSON.stringify({ download_date: '03/05/2021' }),
    });
    expect(() => ingestPricesRawDir(bad, new CollectingSink())).toThrow(
      /xyz_us_d\.meta\.json: not a valid price download sidecar: download_date: expected a date as YYYY-MM-DD/,
    );
    expect(() => ingestPricesRawDir(join(root, 'missing'), new CollectingSink())).toThrow(
      /^raw directory .*missing: cannot list it/,
    );
  });

  it('applies options: download dates, kinds, known splits and user CSV mappings', () => {
    const dir = dirWith('opts', {
      'mine.csv': 'when,last\n2021-07-19,751.19\n2021-07-20,186.12\n',
    });
    const sink = new CollectingSink();
    const r = ingestPricesRawDir(dir, sink, {
      userCsv: { 'mine.csv': { columns: { date: 'when', close: 'last' }, symbol: 'NVDA' } },
      downloadedAt: { 'mine.csv': '2021-07-21T01:00:00Z' },
      kinds: { NVDA: 'etf' },
      knownSplits: { NVDA: [{ exDate: '2021-07-20', ratio: 4 }] },
      map: { totalReturn: true },
    });
    expect(r.instruments[0].kind).toBe('etf');
    expect(sink.series.find((s) => s.series_id === 'px:NVDA:close')?.category).toBe('ETF');
    expect(sink.corporateActions.map((a) => [a.ex_date, a.value, a.source_ref])).toEqual([
      ['2021-07-20', 4, 'pipeline:known_splits'],
    ]);
    const tr = sink.observations.filter((o) => o.series_id === 'px:NVDA:tr').map((o) => o.value);
    expect(tr[1] / tr[0]).toBeCloseTo((4 * 186.12) / 751.19, 12);
    // as-traded data: no vendor-adjusted flag, no warning
    expect(r.vendorAdjustedSeriesIds).toEqual([]);
    expect(sink.warnings.map((w) => w.code)).not.toContain('PRICES_VENDOR_ADJUSTED');
  });
});

const realDir = fileURLToPath(new URL('../../../../shared/fixtures/real/prices/', import.meta.url));

describe.skipIf(!existsSync(realDir))(
  'ingestPricesRawDir on the real prices folder (needs ../shared/fixtures/real)',
  () => {
    it('flags both Stooq AAPL downloads as vendor-adjusted and keeps 2026 values out of the 2019 as-of view', () => {
      const sink = new CollectingSink();
      const r = ingestPricesRawDir(realDir, sink, {
        downloadedAt: {
          'stooq_aapl_us_d_1984-09-07_2019-05-03.csv': '2019-05-08',
          'stooq_aapl_us_d_1984-09-07_2026-01-09.csv': '2026-01-17',
          'stooq_nvda_us_d_1999-01-22_2026-01-09.csv': '2026-01-17',
          'yahoo_download_AAPL_2020-01-02_history.csv': '2021-04-07',
          'yahoo_download_MSFT_2021-02-01_2022-01-31_dividends.csv': '2022-11-14',
          'yahoo_download_NVDA_2021-02-01_2022-01-31_splits.csv': '2022-11-14',
        },
        knownSplits: { NVDA: [{ exDate: '2024-06-10', ratio: 10 }] },
      });
      const aapl = r.instruments.find((i) => i.seriesIds[0] === 'pxadj:AAPL:open')!;
      expect(aapl.quality.map((q) => q.where)).toEqual([
        'stooq_aapl_us_d_1984-09-07_2019-05-03.csv',
        'stooq_aapl_us_d_1984-09-07_2026-01-09.csv',
      ]);
      expect(r.vendorAdjustedSeriesIds).toContain('pxadj:AAPL:close');
      expect(r.vendorAdjustedSeriesIds).toContain('pxadj:NVDA:close');
      const t = isoToMicros('2019-06-01T00:00:00Z');
      let latest: { available_at: number; value: number } | null = null;
      for (const o of sink.observations) {
        if (o.series_id !== 'pxadj:AAPL:close' || o.available_at > t) continue;
        if (o.source_ref !== r.files[0].sha256) throw new Error(`2019 view holds a row from ${o.source_ref}`);
        if (
          microsToIso(o.timestamp).startsWith('2019-05-03') &&
          (!latest || o.available_at > latest.available_at)
        )
          latest = o;
      }
      expect(latest?.value).toBe(211.75);
      // The as-traded AAPL instrument: the 2021 Yahoo download agrees with the 2025 chart after undoing the split.
      const yahoo = r.instruments.find((i) => i.seriesIds[0] === 'px:AAPL:open')!;
      expect(yahoo.revisions).toBe(0);
      expect(r.skipped).toEqual([]);
      // The v7 event downloads agree with the chart events: one action each.
      const msftDivs = sink.corporateActions.filter((a) => a.entity_id === 'ticker:MSFT');
      expect(msftDivs.map((a) => a.value)).toEqual([0.56, 0.56, 0.56, 0.62]);
      const nvdaSplits = sink.corporateActions.filter((a) => a.entity_id === 'ticker:NVDA');
      expect(nvdaSplits.map((a) => [a.ex_date, a.value])).toEqual([
        ['2021-07-20', 4],
        ['2024-06-10', 10],
      ]);
      expect(sink.warnings.filter((w) => w.code === 'PRICES_DIVIDEND_MISMATCH')).toEqual([]);
      const summary = summarizePriceQuality(r);
      const old = summary.find((q) => q.file === 'stooq_aapl_us_d_1984-09-07_2019-05-03.csv')!;
      expect(old).toMatchObject({ symbol: 'AAPL', family: 'pxadj', bars_in: 8733, bars_kept: 8732 });
      expect(old.issue_counts).toEqual({ NON_TRADING_DAY: 1 });
      expect(old.extreme_returns.map((e) => e.date)).toEqual(['2000-09-29']);
    }, 60_000);
  },
);
