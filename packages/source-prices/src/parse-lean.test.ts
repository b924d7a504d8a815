import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { nextUsTradingDay } from '@asof/calendar';
import { CollectingSink } from '@asof/schema';
import { afterAll, describe, expect, it } from 'vitest';
import { ingestPricesRawDir } from './ingest-prices-raw-dir.ts';
import {
  leanFactorEvents,
  leanSecuritySymbol,
  leanTickerOn,
  parseLeanDailyCsv,
  parseLeanFactorFile,
  parseLeanMapFile,
  roundSplitRatio,
} from './parse-lean.ts';

const root = mkdtempSync(join(tmpdir(), 'asof-lean-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
function dirWith(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  return dir;
}

// Hand-made, in the shape of Lean's files: fb.1 (an unrelated FB of 1999-2003) and the FB of 2012 share
// one daily file, since Lean stores bars under the ticker they traded as.
const FB_DAILY = [
  '20030327 00:00,327800,329100,325200,327500,102400',
  '20030328 00:00,327700,334300,327400,332000,158400',
  '20120518 00:00,420500,440500,380000,383700,491907897',
  '20120521 00:00,365300,369900,330000,340100,168192700',
].join('\n');
// Consecutive rows of Lean's aapl.csv (2014), and the first dividend rows (2012).
const AAPL_FACTORS = [
  '20140507,0.8961764,0.03571430,592.33',
  '20140606,0.9011818,0.03571430,645.57',
  '20140806,0.9011818,0.25,94.97',
  '20141105,0.9056639,0.25,108.86',
].join('\n');

describe('Lean files', () => {
  it('prices are the integers / 10000, exactly', () => {
    const p = parseLeanDailyCsv('20140606 00:00,6500000,6512500,6444800,6455700,12116671\n', 'a.csv', 'AAPL');
    expect(p.bars[0]).toMatchObject({ date: '2014-06-06', open: 650, close: 645.57, volume: 12116671 });
    expect(p.adjustment).toBe('none');
  });

  it('map files: the ticker up to each row date; a retired fb.1 gets its first date in its symbol', () => {
    const fb1 = parseLeanMapFile('19990929,fb\n20030328,fb\n', 'fb.1.csv', 'fb.1');
    const googl = parseLeanMapFile(
      '20040819,goog,Q\n20140402,goog,Q\n20501231,googl,Q\n',
      'googl.csv',
      'googl',
    );
    expect(leanSecuritySymbol(fb1)).toBe('FB_19990929');
    expect(leanSecuritySymbol(googl)).toBe('GOOGL');
    expect([
      leanTickerOn(googl, '2004-08-18'),
      leanTickerOn(googl, '2014-04-02'),
      leanTickerOn(googl, '2014-04-03'),
    ]).toEqual([null, 'GOOG', 'GOOGL']);
    expect(leanTickerOn(fb1, '2012-05-18')).toBeNull();
  });

  it('factor files: a change after row i is an action ex the next trading day; dividend = reference × (1 − pf_i/pf_i+1)', () => {
    const rows = parseLeanFactorFile(AAPL_FACTORS, 'aapl.csv');
    const { splits, dividends } = leanFactorEvents(rows, nextUsTradingDay);
    expect(splits).toEqual([{ exDate: '2014-06-09', ratio: 7 }]);
    expect(dividends).toEqual([
      { exDate: '2014-05-08', amount: 3.29 },
      { exDate: '2014-08-07', amount: 0.47 },
    ]);
    const first = parseLeanFactorFile(
      '20120808,0.8613657,0.03571430,619.86\n20121106,0.8650639,0.03571430,582.86',
      'a.csv',
    );
    // $2.65 paid; the factors' 7 digits give it to ±1e-4.
    const [d] = leanFactorEvents(first, nextUsTradingDay).dividends;
    expect(d.exDate).toBe('2012-08-09');
    expect(d.amount).toBeCloseTo(2.65, 3);
    expect([
      roundSplitRatio(0.0178571 / 0.00892857),
      roundSplitRatio(1 / 20),
      roundSplitRatio(1 / 0.997307),
    ]).toEqual([2, 0.05, 1 / 0.997307]);
  });
});

describe('ingestPricesRawDir on Lean files', () => {
  const check = (dir: string, priceKey: string, mapKey: string) => {
    const sink = new CollectingSink();
    const r = ingestPricesRawDir(dir, sink);
    expect(r.files.map((f) => [f.file, f.format, f.symbols])).toEqual([
      [priceKey, 'lean_daily', ['FB_19990929', 'FB']],
    ]);
    const entities = [...new Set(sink.series.map((s) => s.entity_id))].sort();
    expect(entities).toEqual(['ticker:FB', 'ticker:FB_19990929']);
    const close = (id: string) => sink.observations.filter((o) => o.series_id === id).map((o) => o.value);
    expect(close('px:FB_19990929:close')).toEqual([32.75, 33.2]);
    expect(close('px:FB:close')).toEqual([38.37, 34.01]);
    expect(r.accounting.find((a) => a.file === priceKey)).toMatchObject({
      record: 'bar',
      read: 4,
      mapped: 4,
    });
    expect(r.supportFiles.map((f) => [f.file, f.format, f.symbol])).toContainEqual([
      mapKey,
      'lean_map_file',
      'FB',
    ]);
    return r;
  };
  it('the pre-2004 fb and the FB of 2012 are two entities (flat layout of the fixtures)', () => {
    check(
      dirWith('flat', {
        'lean_algoseek_daily_raw_x10000_FB.csv': FB_DAILY,
        'lean_map_files/fb.csv': '20120518,fb,Q\n20501231,fb,Q',
        'lean_map_files/fb.1.csv': '19990929,fb\n20030328,fb',
        'lean_factor_files/fb.csv': '20120518,1,1,1\n20501231,1,1,0',
      }),
      'lean_algoseek_daily_raw_x10000_FB.csv',
      'lean_map_files/fb.csv',
    );
  });
  it("and in Lean's own layout (daily/, map_files/, factor_files/)", () => {
    check(
      dirWith('own', {
        'daily/fb.csv': FB_DAILY,
        'map_files/fb.csv': '20120518,fb,Q\n20501231,fb,Q',
        'map_files/fb.1.csv': '19990929,fb\n20030328,fb',
        'factor_files/fb.csv': '20120518,1,1,1\n20501231,1,1,0',
      }),
      'daily/fb.csv',
      'map_files/fb.csv',
    );
  });
  it('a bar no map file gives its ticker on its date is dropped and accounted (outside_map_file)', () => {
    const sink = new CollectingSink();
    const r = ingestPricesRawDir(
      dirWith('outside', {
        'lean_algoseek_daily_raw_x10000_FB.csv': FB_DAILY,
        'lean_map_files/fb.csv': '20120518,fb,Q\n20501231,fb,Q',
      }),
      sink,
    );
    expect(r.accounting[r.accounting.length - 1]).toMatchObject({
      read: 4,
      mapped: 2,
      dropped: { outside_map_file: 2 },
    });
    expect(sink.warnings.some((w) => w.code === 'PRICES_LEAN_UNMAPPED_BARS')).toBe(true);
  });
});
