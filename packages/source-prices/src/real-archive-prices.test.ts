import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { localDateOfMicros } from '@asof/calendar';
import { CollectingSink } from '@asof/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IngestPricesResult, ingestPricesRawDir } from './ingest-prices-raw-dir.ts';

// The real archive lives beside the repository (../shared), never inside it.
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const PRICES = join(repoRoot, '../shared/fixtures/real-archive/prices');
const scratch = mkdtempSync(join(tmpdir(), 'asof-real-archive-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A folder of links to some of the real files (the files themselves are never copied). */
function linked(name: string, entries: string[]): string {
  const dir = join(scratch, name);
  mkdirSync(dir);
  for (const e of entries) symlinkSync(join(PRICES, e), join(dir, e));
  return dir;
}
const closes = (sink: CollectingSink, id: string) =>
  new Map(
    sink.observations
      .filter((o) => o.series_id === id)
      .map((o) => [localDateOfMicros(o.timestamp, 'America/New_York'), o.value] as const),
  );
const splits = (sink: CollectingSink, entity: string) =>
  sink.corporateActions
    .filter((c) => c.entity_id === entity && c.kind === 'split')
    .map((c) => [c.ex_date, c.value]);

describe.skipIf(!existsSync(PRICES))(
  'real archive price files (needs ../shared/fixtures/real-archive/prices)',
  () => {
    let all: IngestPricesResult;
    beforeAll(() => {
      all = ingestPricesRawDir(PRICES, new CollectingSink());
    });

    it('every file: its detected format, and one accounting entry whose read is the count of its data rows', () => {
      const formats = Object.fromEntries(all.files.map((f) => [f.file, f.format]));
      expect(formats).toMatchObject({
        'googlefinance_csv_ORCL_2010_dd-Mon-yy.csv': 'google_finance_csv',
        'lean_algoseek_daily_raw_x10000_AAPL.csv': 'lean_daily',
        'quandl_wiki_AIG_2009_reverse_split_1for20_2009-07-01.csv': 'quandl_wiki',
        'quandl_wiki_sample_AAPL_BRK_A_MSFT_ZEN_2014_raw_and_adjusted.csv': 'quandl_wiki_table',
        'yahoo_csv_N225_2010.csv': 'yahoo_ichart_csv',
        'yahoo_csv_NVDA_1999-01-22_2014-12-31_dl2015.csv': 'yahoo_csv',
        'yfinance_test_CALM_2022-2024_with_dividends.csv': 'yfinance_csv',
        'zipline_csvdir_AAPL_2012-01-03_2014-12-31_div_split_cols.csv': 'zipline_csvdir',
      });
      const top = readdirSync(PRICES).filter((f) => f.endsWith('.csv'));
      const subs = ['lean_map_files', 'lean_factor_files'];
      const used = new Set(all.accounting.map((a) => a.file));
      for (const f of top) expect(used.has(f), f).toBe(true);
      for (const a of all.accounting) {
        const text = readFileSync(join(PRICES, a.file), 'utf8');
        const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '').length;
        // Lean's files are headerless; every other CSV has one header line.
        const headerless = a.file.startsWith('lean_') || subs.some((s) => a.file.startsWith(`${s}/`));
        expect([a.file, a.read]).toEqual([a.file, headerless ? lines : lines - 1]);
        expect(a.read).toBe(a.mapped + Object.values(a.dropped).reduce((x, y) => x + y, 0));
      }
      // What is dropped, and why: the N225's Tokyo sessions on US holidays (read on the US calendar without a
      // sidecar kind), the old BankAmerica's 1998 bars in bac.csv (ticker BAC before NationsBank took it on
      // 1998-09-30: no map file here is that security), and the zipline benchmark (returns, not prices).
      const drops = all.accounting
        .filter((a) => Object.keys(a.dropped).length > 0)
        .map((a) => [a.file, a.dropped]);
      expect(drops).toEqual([
        ['zipline_SPY_benchmark_daily_returns_1993-02-01_2018-04-27.csv', { out_of_scope: 6357 }],
        ['lean_algoseek_daily_raw_x10000_BAC.csv', { outside_map_file: 188 }],
        ['yahoo_csv_N225_2010.csv', { non_trading_day: 8 }],
      ]);
    });

    describe('QuantConnect/Lean daily files with map and factor files', () => {
      const sink = new CollectingSink();
      beforeAll(() => {
        const names = readdirSync(PRICES).filter((f) => f.startsWith('lean_'));
        ingestPricesRawDir(linked('lean', names), sink);
      });

      it('prices × 10000, raw as traded: the close is the integer / 10000 exactly', () => {
        const aapl = closes(sink, 'px:AAPL:close');
        expect(aapl.get('2014-06-06')).toBe(6455700 / 10000);
        expect(aapl.get('2014-06-06')).toBe(645.57);
        expect(aapl.get('2014-06-09')).toBe(93.7);
        expect(aapl.get('1998-01-02')).toBe(16.25);
        expect(closes(sink, 'px:GOOGL:close').get('2014-04-03')).toBe(571.5);
      });

      it("factor files' splits are corporate actions ex the trading day after the row (aapl: 2000-06-21 2:1, 2005-02-28 2:1, 2014-06-09 7:1, 2020-08-31 4:1)", () => {
        expect(splits(sink, 'ticker:AAPL')).toEqual([
          ['2000-06-21', 2],
          ['2005-02-28', 2],
          ['2014-06-09', 7],
          ['2020-08-31', 4],
        ]);
        // aig.csv's split factor > 1 before 2009: the 1:20 reverse split, after the 3:2, 5:4 and 3:2 of 1998-2000.
        expect(splits(sink, 'ticker:AIG')).toEqual([
          ['1998-08-03', 1.5],
          ['1999-08-02', 1.25],
          ['2000-07-31', 1.5],
          ['2009-07-01', 0.05],
        ]);
        expect(splits(sink, 'ticker:BAC')).toEqual([['2004-08-30', 2]]);
        // googl.csv 0.5 until 2014-04-02: the class C distribution; goog.csv 0.997307: the 2015 adjustment payment.
        expect(splits(sink, 'ticker:GOOGL')).toEqual([['2014-04-03', 2]]);
        expect(splits(sink, 'ticker:GOOG')).toEqual([['2015-04-27', 1 / 0.997307]]);
        const div = sink.corporateActions.find(
          (c) => c.entity_id === 'ticker:AAPL' && c.ex_date === '2012-08-09',
        );
        expect(div?.value).toBeCloseTo(2.65, 3);
      });

      it('fb.1.csv is an unrelated earlier FB (1999-2003): two entities, the bars of one daily file split between them', () => {
        const fb = sink.series.filter(
          (s) => s.series_id.endsWith(':close') && s.entity_id?.startsWith('ticker:FB'),
        );
        expect(fb.map((s) => [s.series_id, s.entity_id])).toEqual([
          ['px:FB:close', 'ticker:FB'],
          ['px:FB_19990929:close', 'ticker:FB_19990929'],
        ]);
        const old = [...closes(sink, 'px:FB_19990929:close').keys()];
        const now = [...closes(sink, 'px:FB:close').keys()];
        expect([old[0], old[old.length - 1], now[0]]).toEqual(['1999-09-29', '2003-03-28', '2012-05-18']);
      });

      it('googl.csv traded as goog until 2014-04-02: its bars come from the GOOG daily file, class C from 2014-04-03', () => {
        expect(closes(sink, 'px:GOOGL:close').get('2014-04-02')).toBe(1135.1);
        expect(closes(sink, 'px:GOOG:close').has('2014-04-02')).toBe(false);
        expect(closes(sink, 'px:GOOG:close').get('2014-04-03')).toBe(569.74);
      });
    });

    it('Quandl WIKI/PRICES: AAPL raw close 645.57 (2014-06-06) then 93.70 with split_ratio 7; adj_* never read', () => {
      const sink = new CollectingSink();
      ingestPricesRawDir(
        linked('quandl-table', ['quandl_wiki_sample_AAPL_BRK_A_MSFT_ZEN_2014_raw_and_adjusted.csv']),
        sink,
      );
      const aapl = closes(sink, 'px:AAPL:close');
      expect([aapl.get('2014-06-06'), aapl.get('2014-06-09')]).toEqual([645.57, 93.7]);
      expect(splits(sink, 'ticker:AAPL')).toEqual([['2014-06-09', 7]]);
      expect(closes(sink, 'px:BRK_A:close').size).toBeGreaterThan(200);
    });

    it('Quandl WIKI AIG 2009: the reverse-split row 2009-07-01 (Split Ratio 0.05) is a 1:20 split; 2008 raw close 1.57, not the Adj. 24.83', () => {
      const sink = new CollectingSink();
      ingestPricesRawDir(
        linked('quandl-aig', [
          'quandl_wiki_AIG_2008_reverse_split_adjusted.csv',
          'quandl_wiki_AIG_2009_reverse_split_1for20_2009-07-01.csv',
        ]),
        sink,
      );
      expect(splits(sink, 'ticker:AIG')).toEqual([['2009-07-01', 0.05]]);
      expect(closes(sink, 'px:AIG:close').get('2008-12-31')).toBe(1.57);
    });

    it('zipline csvdir AAPL trap: prices before 2014-06-09 already divided by 7 yet split=7.0 is flagged: undone once, never twice', () => {
      const sink = new CollectingSink();
      ingestPricesRawDir(
        linked('zipline', ['zipline_csvdir_AAPL_2012-01-03_2014-12-31_div_split_cols.csv']),
        sink,
      );
      const aapl = closes(sink, 'px:AAPL:close');
      expect(aapl.get('2014-06-06')).toBe(7 * 92.224289);
      expect(aapl.get('2014-06-09')).toBeCloseTo(93.7, 5);
      expect(splits(sink, 'ticker:AAPL')).toEqual([['2014-06-09', 7]]);
      expect(
        sink.warnings
          .filter((w) => w.code === 'PRICES_SPLIT_ALREADY_ADJUSTED')
          .map((w) => w.message.split(':')[0]),
      ).toEqual(['zipline_csvdir_AAPL_2012-01-03_2014-12-31_div_split_cols.csv']);
      // Dividends split-adjusted too (0.37857): paid 2.65.
      const div = sink.corporateActions.find((c) => c.kind === 'dividend' && c.ex_date === '2012-08-09');
      expect(div?.value).toBeCloseTo(2.65, 4);
    });

    it('zipline csvdir IBM: raw bars, no split: read as traded, quarterly dividends as actions', () => {
      const sink = new CollectingSink();
      ingestPricesRawDir(
        linked('zipline-ibm', ['zipline_csvdir_IBM_2012-01-03_2014-12-31_div_split_cols.csv']),
        sink,
      );
      expect(sink.corporateActions.filter((c) => c.kind === 'dividend')).toHaveLength(12);
      expect(sink.warnings.some((w) => w.code === 'PRICES_SPLIT_ALREADY_ADJUSTED')).toBe(false);
    });

    it.each([
      'yahoo_csv_ORCL_2000_old_vintage_desc_order.csv',
      'yahoo_csv_SPY_2007_old_vintage_desc_order.csv',
      'yahoo_csv_N225_2010.csv',
      'googlefinance_csv_ORCL_2010_dd-Mon-yy.csv',
      'quandl_wiki_YHOO_2011.csv',
    ])(
      'descending order (and the N225 trailing empty line): %s gives the rows of an ascending copy',
      (file) => {
        const text = readFileSync(join(PRICES, file), 'utf8');
        const [head, ...rows] = text.split('\n').filter((l) => l !== '');
        const dir = join(scratch, `asc-${file}`);
        mkdirSync(dir);
        writeFileSync(join(dir, file), `${[head, ...rows.reverse()].join('\n')}\n`);
        const read = (d: string) => {
          const sink = new CollectingSink();
          ingestPricesRawDir(d, sink);
          return sink.observations.map(({ source_ref: _, ...o }) => o);
        };
        const desc = read(linked(`desc-${file}`, [file]));
        expect(desc.length).toBeGreaterThan(4 * 200);
        expect(read(dir)).toEqual(desc);
      },
    );

    it('yfinance CALM: Datetime with -05:00/-04:00 offsets, Dividends as actions, Adj Close never read', () => {
      const sink = new CollectingSink();
      ingestPricesRawDir(linked('yfinance', ['yfinance_test_CALM_2022-2024_with_dividends.csv']), sink);
      const c = closes(sink, 'px:CALM:close');
      expect(c.get('2022-01-03')).toBe(37.70000076293945);
      expect(c.get('2024-08-21')).toBe(71.88999938964844);
      expect(sink.corporateActions.filter((a) => a.kind === 'dividend').length).toBeGreaterThan(3);
    });
  },
);
