import { describe, expect, it } from 'vitest';
import { parseCsv } from './parse-csv.ts';

describe('parseCsv', () => {
  it('handles BOM, CRLF, quotes with commas, doubled quotes, quoted newlines and blank lines', () => {
    const text = '\ufeffa,b\r\n"x,1","say ""hi"""\r\n\r\n"multi\nline",2\n';
    const { header, columns, lines } = parseCsv(text, 't.csv');
    expect(header).toEqual(['a', 'b']);
    expect(columns).toEqual([
      ['x,1', 'multi\nline'],
      ['say "hi"', '2'],
    ]);
    expect(lines).toEqual([2, 4]);
  });

  it('names the line of a row with the wrong field count, and an unterminated quote', () => {
    expect(() => parseCsv('a,b\n1,2\n3\n', 't.csv')).toThrow(/t\.csv line 3: 1 fields, expected 2/);
    expect(() => parseCsv('a,b\n"1,2\n', 't.csv')).toThrow(/t\.csv line 2: a quoted field never closes/);
    expect(() => parseCsv('', 't.csv')).toThrow(/empty file/);
  });
});
