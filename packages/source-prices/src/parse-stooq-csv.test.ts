import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isStooqCsv, parseStooqCsv } from './parse-stooq-csv.ts';

const dir = fileURLToPath(new URL('../../../../shared/fixtures/real/prices/', import.meta.url));
const has = existsSync(dir);

describe('parseStooqCsv (hand-made)', () => {
  const text =
    'Date,Open,High,Low,Close,Volume\r\n2021-07-19,1,2,0.5,1.5,100\r\n2021-07-20,1.5,2,1,1.8\r\n2021-07-21,x,2,1,1.9,50\r\n';

  it('keeps ragged and unreadable cells missing (never zero) and reports them with the line', () => {
    const p = parseStooqCsv(text, 'abc_us_d.csv', { symbol: 'ABC' });
    expect(p.bars.length).toBe(3);
    expect(p.bars[1]).toMatchObject({ date: '2021-07-20', close: 1.8, volume: null, row: 3 });
    expect(p.bars[2].open).toBeNull();
    expect(p.issues.map((i) => [i.code, i.row])).toEqual([
      ['RAGGED_ROW', 3],
      ['BAD_NUMBER', 4],
    ]);
    expect(p.adjustment).toBe('split_dividend');
    expect(p.currency).toBe('USD');
  });

  it('can refuse ragged rows, and explains a Stooq message body', () => {
    expect(() => parseStooqCsv(text, 'abc.csv', { raggedRows: 'error' })).toThrow(
      /abc\.csv line 3: 5 fields, expected 6/,
    );
    expect(() => parseStooqCsv('No data', 'x.csv')).toThrow(/Stooq answered with a message/);
    expect(isStooqCsv(text)).toBe(true);
    expect(isStooqCsv('Date,Dividends\n')).toBe(false);
  });
});

describe.skipIf(!has)('parseStooqCsv on real Stooq files (needs ../shared/fixtures/real)', () => {
  it('reports the 2010-04-26 ragged row of the 2019 AAPL download instead of dropping or zero-filling it', () => {
    const p = parseStooqCsv(
      readFileSync(`${dir}stooq_aapl_us_d_1984-09-07_2019-05-03.csv`, 'utf8'),
      'aapl 2019',
    );
    expect(p.bars.length).toBe(8733);
    const ragged = p.issues.filter((i) => i.code === 'RAGGED_ROW');
    expect(ragged.length).toBe(1);
    expect(ragged[0].message).toContain('2010-04-26,34.167,34.229,33.693,33.858');
    const bar = p.bars.find((b) => b.date === '2010-04-26');
    expect(bar).toMatchObject({ close: 33.858, volume: null });
    expect(p.bars.at(-1)).toMatchObject({ date: '2019-05-03', close: 211.75 });
  });

  it('reads all 10,416 rows of the 2026 download', () => {
    const p = parseStooqCsv(readFileSync(`${dir}stooq_aapl_us_d_1984-09-07_2026-01-09.csv`, 'utf8'));
    expect(p.bars.length).toBe(10416);
    expect(p.issues).toEqual([]);
    expect(p.bars.find((b) => b.date === '2019-05-03')?.close).toBeCloseTo(50.7228, 4);
  });
});
