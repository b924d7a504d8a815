/** A plain fixed-width text table (numbers right-aligned) for terminal summaries. */
export function formatTable(headers: string[], rows: (string | number)[][]): string {
  const cells = [
    headers,
    ...rows.map((r) => r.map((c) => (typeof c === 'number' ? c.toLocaleString('en-US') : c))),
  ];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => String(r[i] ?? '').length)));
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number'));
  const line = (r: (string | number)[]) =>
    r
      .map((c, i) => (numeric[i] ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join(
    '\n',
  );
}
