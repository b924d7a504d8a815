// C0 and C1 controls (ESC opens ANSI sequences, U+009B is a one-character CSI) and the bidi overrides and
// isolates, which reorder what the terminal shows.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * A cell as visible text: every control and bidi character is written out (`\n`, `\x1b`, `\u202e`), so a
 * model name or series id cannot move the cursor, recolour, clear or rewrite the terminal, or break a row.
 */
export function printableCell(text: string): string {
  return text.replace(UNPRINTABLE, (c) => {
    const code = c.charCodeAt(0);
    return (
      NAMED[c] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`)
    );
  });
}

/** A plain fixed-width text table (numbers right-aligned) for terminal summaries. */
export function formatTable(headers: string[], rows: (string | number)[][]): string {
  const cells = [
    headers.map(printableCell),
    ...rows.map((r) =>
      r.map((c) => (typeof c === 'number' ? c.toLocaleString('en-US') : printableCell(String(c ?? '')))),
    ),
  ];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number'));
  const line = (r: string[]) =>
    r
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join(
    '\n',
  );
}
