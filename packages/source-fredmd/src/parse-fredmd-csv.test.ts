import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFredmdCell, parseFredmdCsv } from './parse-fredmd-csv.ts';

const fixture = (p: string) => readFileSync(new URL(`../fixtures/${p}`, import.meta.url), 'utf8');

describe('parseFredmdCsv', () => {
  it('reads the old fixed-width format (MM/DD/YYYY, leading spaces, 9 decimals) as plain numbers', () => {
    const p = parseFredmdCsv(fixture('fredmd/fredmd_vintage_1999-08.csv'), 'fredmd_vintage_1999-08.csv');
    expect(p.dataset).toBe('fredmd');
    expect(p.frequency).toBe('M');
    expect(p.columns.map((c) => [c.mnemonic, c.tcode])).toEqual([
      ['INDPRO', '5'],
      ['RETAILx', '5'],
      ['S&P 500', '5'],
      ['UNRATE', '2'],
    ]);
    expect(p.rows.map((r) => r.period.date)).toEqual([
      '1959-01-01',
      '1959-02-01',
      '1959-03-01',
      '1959-04-01',
    ]);
    expect(p.rows[0].cells).toEqual([{ value: 10.5 }, { value: 1000 }, { value: 20.25 }, { value: 4 }]);
    // A padded blank is not published.
    expect(p.rows[3].cells[1]).toBeUndefined();
    expect(p.valueCells).toBe(15);
  });

  it('reads the current format (M/D/YYYY, plain values) the same way, skipping the trailing empty row', () => {
    const p = parseFredmdCsv(fixture('fredmd/fredmd_vintage_1999-09.csv'), 'fredmd_vintage_1999-09.csv');
    expect(p.rows.map((r) => r.sasdate)).toEqual([
      '1/1/1959',
      '2/1/1959',
      '3/1/1959',
      '4/1/1959',
      '5/1/1959',
    ]);
    expect(p.rows[0].cells).toEqual([
      { value: 10.5 },
      { value: 1000 },
      { value: 20.25 },
      undefined,
      undefined,
    ]);
    expect(p.rows[2].cells[4]).toEqual({ bad: 'abc' });
    expect(p.valueCells).toBe(20);
  });

  it('reads FRED-QD (a factors row; quarterly) with the same parser', () => {
    const p = parseFredmdCsv(fixture('fredqd/fredqd_2020-07.csv'), 'fredqd_2020-07.csv');
    expect(p.dataset).toBe('fredqd');
    expect(p.frequency).toBe('Q');
    expect(p.columns[0]).toEqual({ mnemonic: 'GDPC1', tcode: '5', factor: '1' });
    expect(p.rows.map((r) => r.period.date)).toEqual([
      '2019-01-01',
      '2019-04-01',
      '2019-07-01',
      '2019-10-01',
    ]);
  });

  it('takes CRLF line ends and a BOM', () => {
    const text = '\uFEFFsasdate,INDPRO\r\nTransform:,5\r\n1/1/2000,1.5\r\n';
    expect(parseFredmdCsv(text, 'x_2000-02.csv').rows[0].cells).toEqual([{ value: 1.5 }]);
  });

  it('names file, line, field and value for bad structure', () => {
    const bad = (text: string, code: string, match: RegExp) => {
      let err: unknown;
      try {
        parseFredmdCsv(text, 'f_2020-01.csv');
      } catch (e) {
        err = e;
      }
      expect(err).toMatchObject({ code });
      expect((err as Error).message).toMatch(/^f_2020-01\.csv: /);
      expect((err as Error).message).toMatch(match);
    };
    bad('date,INDPRO\n1/1/2000,1\n', 'FREDMD_BAD_HEADER', /"date".*sasdate/);
    bad('sasdate,INDPRO\nTransform:,5\n1/15/2000,1\n', 'FREDMD_BAD_DATE', /line 3: sasdate "1\/15\/2000"/);
    bad('sasdate,INDPRO\n1/1/2000,1\n01/01/2000,2\n', 'FREDMD_DUPLICATE_DATE', /lines 2 and 3/);
    bad('sasdate,INDPRO,INDPRO\n1/1/2000,1,2\n', 'FREDMD_DUPLICATE_COLUMN', /"INDPRO"/);
    bad('sasdate,INDPRO\n,1\n', 'FREDMD_BAD_DATE', /line 2: values without a sasdate/);
    bad('sasdate,INDPRO\n1/1/2000,1,7\n', 'FREDMD_EXTRA_CELL', /line 2: cell 3 holds "7"/);
    bad('sasdate,INDPRO\n1/1/2000,"1\n', 'FREDMD_BAD_CSV', /line 2: a quoted cell is never closed/);
  });
});

describe('parseFredmdCell', () => {
  it('reads numbers, blanks and what is neither', () => {
    expect(parseFredmdCell('  1691.300000000')).toEqual({ value: 1691.3 });
    expect(parseFredmdCell('-0.5')).toEqual({ value: -0.5 });
    expect(parseFredmdCell('1e-3')).toEqual({ value: 0.001 });
    expect(parseFredmdCell('   ')).toBeUndefined();
    expect(parseFredmdCell('NaN')).toEqual({ bad: 'NaN' });
    expect(parseFredmdCell('1,000')).toEqual({ bad: '1,000' });
    expect(parseFredmdCell('1e300')).toEqual({ bad: '1e300' });
  });
});
