import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRtdsmCell, parseRtdsmCsv } from './parse-rtdsm-csv.ts';

const fixture = (p: string) => readFileSync(new URL(`../fixtures/${p}`, import.meta.url), 'utf8');

describe('parseRtdsmCell', () => {
  it('reads trailing-space values, quoted thousands separators, and #N/A as not published', () => {
    expect(parseRtdsmCell('306.4 ')).toEqual({ value: 306.4 });
    expect(parseRtdsmCell('22,672.9 ')).toEqual({ value: 22672.9 });
    expect(parseRtdsmCell('1,234,567')).toEqual({ value: 1234567 });
    expect(parseRtdsmCell('#N/A')).toBeUndefined();
    expect(parseRtdsmCell('')).toBeUndefined();
    expect(parseRtdsmCell('12,34')).toEqual({ bad: '12,34' });
    expect(parseRtdsmCell('bad ')).toEqual({ bad: 'bad' });
  });
});

describe('parseRtdsmCsv', () => {
  it('reads the wide layout: one column per vintage, one row per observation date', () => {
    const p = parseRtdsmCsv(fixture('rtdsm/routput_small.csv'), 'routput_small.csv');
    expect(p.vintages.map((v) => v.column)).toEqual(['ROUTPUT65Q4', 'ROUTPUT66Q1', 'ROUTPUT66Q2']);
    expect(p.rows.map((r) => [r.period.date, r.period.frequency])).toEqual([
      ['1965-04-01', 'Q'],
      ['1965-07-01', 'Q'],
      ['1965-10-01', 'Q'],
      ['1966-01-01', 'Q'],
    ]);
    expect(p.rows[1].cells).toEqual([{ value: 615 }, { value: 616.1 }, { value: 1616.1 }]);
    expect(p.valueCells).toBe(8);
  });

  it('reads CRLF files with monthly vintages', () => {
    const p = parseRtdsmCsv(fixture('monthly/pcpi_small.csv'), 'pcpi_small.csv');
    expect(p.vintages.map((v) => v.variable)).toEqual(['PCPI', 'PCPI', 'ZZZ']);
    expect(p.rows[2].cells).toEqual([undefined, { bad: 'bad' }, { value: 3 }]);
  });

  it('names file, line, field and value for bad structure', () => {
    const bad = (text: string, code: string, match: RegExp) => {
      let err: unknown;
      try {
        parseRtdsmCsv(text, 'r.csv');
      } catch (e) {
        err = e;
      }
      expect(err).toMatchObject({ code });
      expect((err as Error).message).toMatch(match);
    };
    bad('sasdate,ROUTPUT65Q4\n', 'RTDSM_BAD_HEADER', /^r\.csv: line 1: .*"sasdate".*DATE/);
    bad('DATE,ROUTPUT\n', 'RTDSM_BAD_VINTAGE_COLUMN', /column 2 is "ROUTPUT"/);
    bad('DATE,RUC65Q4,RUC65Q4\n', 'RTDSM_DUPLICATE_VINTAGE', /columns 2 and 3/);
    bad('DATE,RUC65Q4\n1965-01,4\n', 'RTDSM_BAD_DATE', /line 2: DATE "1965-01"/);
    bad('DATE,RUC65Q4\n1965:01,4\n1965:Q1,4\n', 'RTDSM_MIXED_FREQUENCY', /line 3/);
    bad('DATE,RUC65Q4\n1965:01,4\n1965:M01,4\n', 'RTDSM_DUPLICATE_DATE', /lines 2 and 3/);
    bad('DATE,RUC65Q4\n1965:01,4,5\n', 'RTDSM_EXTRA_CELL', /line 2: cell 3/);
  });
});
