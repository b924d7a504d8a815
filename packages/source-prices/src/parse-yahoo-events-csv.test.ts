import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isYahooEventsCsv, parseYahooEventsCsv } from './parse-yahoo-events-csv.ts';

const dir = fileURLToPath(new URL('../../../../shared/fixtures/real/prices/', import.meta.url));
const has = existsSync(dir);

describe('parseYahooEventsCsv', () => {
  it('reads split ratios and dividends, and reports bad rows', () => {
    const p = parseYahooEventsCsv('Date,Stock Splits\n2020-08-31,4:1\n2005-02-28,2/1\n2001-01-01,x', 'e.csv');
    expect(p.splits).toEqual([
      { exDate: '2005-02-28', ratio: 2 },
      { exDate: '2020-08-31', ratio: 4 },
    ]);
    expect(p.issues[0].message).toBe('e.csv line 4: "x" is not a split ratio like 4:1; row skipped');
    expect(p.bars).toEqual([]);
    expect(() => parseYahooEventsCsv('Date,Close\n', 'f.csv')).toThrow(
      /expected Date,Stock Splits or Date,Dividends/,
    );
  });

  it.skipIf(!has)(
    'reads the real NVDA split and MSFT dividend downloads (needs ../shared/fixtures/real)',
    () => {
      const splits = readFileSync(`${dir}yahoo_download_NVDA_2021-02-01_2022-01-31_splits.csv`, 'utf8');
      expect(isYahooEventsCsv(splits)).toBe(true);
      expect(parseYahooEventsCsv(splits).splits).toEqual([{ exDate: '2021-07-20', ratio: 4 }]);
      const divs = parseYahooEventsCsv(
        readFileSync(`${dir}yahoo_download_MSFT_2021-02-01_2022-01-31_dividends.csv`, 'utf8'),
      );
      expect(divs.dividends.map((d) => d.amount)).toEqual([0.56, 0.56, 0.56, 0.62]);
      expect(divs.splitsListed).toBe(false);
    },
  );
});
