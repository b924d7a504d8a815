import { describe, expect, it } from 'vitest';
import { formatTable, printableCell } from './format-table.ts';

// biome-ignore lint/suspicious/noControlCharactersInRegex: checking that none is left
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('formatTable', () => {
  it('aligns text left and numbers right', () => {
    expect(
      formatTable(
        ['model', 'n'],
        [
          ['a', 1000],
          ['bb', 2],
        ],
      ),
    ).toBe(['model      n', '-----  -----', 'a      1,000', 'bb         2'].join('\n'));
  });

  it('writes out control characters and ANSI escapes of a hostile model name instead of sending them', () => {
    const hostile = 'evil\u001b[2J\u001b[31mred\u009b1A\rover\nline\u202egnp.exe\u0007';
    const out = formatTable(
      ['#', 'model'],
      [
        [1, hostile],
        [2, 'random_walk'],
      ],
    );
    const lines = out.split('\n');
    expect(lines).toHaveLength(4);
    for (const l of lines) expect(l).not.toMatch(CONTROL);
    expect(lines[2]).toBe('1  evil\\x1b[2J\\x1b[31mred\\x9b1A\\rover\\nline\\u202egnp.exe\\x07');
    // Columns still line up: the width is that of the visible text.
    expect(lines[3]).toBe(`2  ${'random_walk'.padEnd(lines[2].length - 3)}`.trimEnd());
  });

  it('escapes headers too, and leaves printable Unicode alone', () => {
    expect(printableCell('Zürich — €')).toBe('Zürich — €');
    expect(formatTable(['a\tb'], [['x']]).split('\n')[0]).toBe('a\\tb');
  });
});
