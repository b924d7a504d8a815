import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CsvParser, parseCsv, streamCsvFile } from './parse-csv.ts';

const dir = mkdtempSync(join(tmpdir(), 'asof-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Parses `text` pushed in pieces of `size` characters; returns the rows (copied) and their lines. */
function rowsInPieces(text: string, size: number): { rows: string[][]; lines: number[] } {
  const rows: string[][] = [];
  const lines: number[] = [];
  const parser = new CsvParser('t.csv', (fields, line) => {
    rows.push([...fields]);
    lines.push(line);
    return true;
  });
  for (let i = 0; i < text.length; i += size) parser.push(text.slice(i, i + size));
  parser.end();
  return { rows, lines };
}

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

  it('refuses text after a closing quote, naming the line', () => {
    expect(() => parseCsv('a,b\n1,2\n"x"y,2\n', 't.csv')).toThrow(
      /t\.csv line 3: text after the closing quote/,
    );
  });
});

describe('CsvParser (incremental)', () => {
  const text =
    '\ufeffmodel,series_id,value\r\n"m,1",A,1\n\n"say ""hi""\nthere",B,2\r\nm,"C\r\nD",3\nlast,E,"4"';

  it('gives the same rows and lines whatever the chunk boundaries (down to one character)', () => {
    const whole = rowsInPieces(text, text.length);
    expect(whole.rows).toEqual([
      ['model', 'series_id', 'value'],
      ['m,1', 'A', '1'],
      ['say "hi"\nthere', 'B', '2'],
      ['m', 'C\r\nD', '3'],
      ['last', 'E', '4'],
    ]);
    expect(whole.lines).toEqual([1, 2, 4, 6, 8]);
    for (const size of [1, 2, 3, 5, 7, 11]) expect(rowsInPieces(text, size)).toEqual(whole);
  });

  it('ends a row at a lone CR too (line numbers count LFs), and at CRLF or LF in any mix', () => {
    const mixed = 'h1,h2\rx,y\r\n1,2\n,\r\n"q\r",3\n';
    const whole = rowsInPieces(mixed, mixed.length);
    expect(whole.rows).toEqual([
      ['h1', 'h2'],
      ['x', 'y'],
      ['1', '2'],
      ['', ''],
      ['q\r', '3'],
    ]);
    expect(whole.lines).toEqual([1, 1, 2, 3, 4]);
    for (const size of [1, 2, 3, 4, 6]) expect(rowsInPieces(mixed, size)).toEqual(whole);
  });

  it('stops when the handler returns false', () => {
    const seen: string[] = [];
    const parser = new CsvParser('t.csv', (fields) => {
      seen.push(fields[0]);
      return seen.length < 2;
    });
    expect(parser.push('a\nb\nc\nd\n')).toBe(false);
    expect(parser.push('e\n')).toBe(false);
    parser.end();
    expect(seen).toEqual(['a', 'b']);
  });

  it('refuses a field past the length limit (a quote left open) naming the line it starts on', () => {
    const parser = new CsvParser('t.csv', () => true, 16);
    parser.push('a,b\n1,2\n"open,');
    expect(() => parser.push('x'.repeat(20))).toThrow(/t\.csv line 3: a field longer than 16 characters/);
  });
});

describe('streamCsvFile', () => {
  it('reads a file of several chunks, with multi-byte characters and quoted line breaks anywhere', async () => {
    // ~6 MB: more than one 4 MiB read, so rows, quotes and UTF-8 sequences straddle chunk boundaries.
    const rows: string[] = ['name,note,n'];
    for (let i = 0; i < 100_000; i++) {
      rows.push(
        i % 997 === 0 ? `"é${i}","two\nlines, ""q""",${i}` : `é€${i},ünïcødé ${'x'.repeat(i % 40)},${i}`,
      );
    }
    const path = join(dir, 'big.csv');
    writeFileSync(path, `${rows.join('\n')}\n`);
    const got: string[][] = [];
    const lines: number[] = [];
    await streamCsvFile(path, (fields, line) => {
      got.push([...fields]);
      lines.push(line);
      return true;
    });
    expect(got.length).toBe(100_001);
    const expected = parseCsv(`${rows.join('\n')}\n`, path);
    expect(got.slice(1).map((r) => r[0])).toEqual(expected.columns[0]);
    expect(got.slice(1).map((r) => r[1])).toEqual(expected.columns[1]);
    expect(lines.slice(1)).toEqual(expected.lines);
    // Row i starts on line i + 2 plus one extra line per earlier quoted break.
    expect(lines[998]).toBe(998 + 1 + 1);
    expect(got[998]).toEqual(['é997', 'two\nlines, "q"', '997']);
  });
});
