import { isOutOfScope } from '@asof/build';
import type { IngestAccounting, Manifest } from '@asof/schema';
import { formatTable } from './format-table.ts';

/**
 * The short console table: per source and record kind, files, records read, mapped and dropped, and the
 * reasons that dropped the most (out-of-scope ones marked). `perFile` lists every file instead.
 */
export function formatAccounting(entries: readonly IngestAccounting[], perFile = false): string {
  if (entries.length === 0) return '';
  const groups = new Map<
    string,
    { files: number; read: number; mapped: number; dropped: Map<string, number> }
  >();
  for (const e of entries) {
    const key = perFile ? `${e.source}\u0000${e.record}\u0000${e.file}` : `${e.source}\u0000${e.record}`;
    const g = groups.get(key) ?? { files: 0, read: 0, mapped: 0, dropped: new Map<string, number>() };
    g.files++;
    g.read += e.read;
    g.mapped += e.mapped;
    for (const [r, n] of Object.entries(e.dropped)) g.dropped.set(r, (g.dropped.get(r) ?? 0) + n);
    groups.set(key, g);
  }
  const rows = [...groups].map(([key, g]) => {
    const [source, record, file] = key.split('\u0000');
    const reasons = [...g.dropped]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 3)
      .map(([r, n]) => `${r}${isOutOfScope(r) ? ' (out of scope)' : ''} ${n.toLocaleString('en-US')}`)
      .join(', ');
    const more = g.dropped.size > 3 ? `, +${g.dropped.size - 3} more` : '';
    const dropped = g.read - g.mapped;
    return [
      perFile ? `${source} ${file}` : source,
      perFile ? record : `${g.files} × ${record}s`,
      g.read,
      g.mapped,
      dropped,
      `${reasons}${more}`,
    ];
  });
  return formatTable(
    [perFile ? 'file' : 'source', 'records', 'read', 'mapped', 'dropped', 'top reasons'],
    rows,
  );
}

/**
 * Warnings for the console: grouped by code with a count and the first message, so a small real build
 * prints a line per kind of problem; `verbose` prints every one (the manifest always holds them all).
 */
export function formatWarnings(warnings: Manifest['warnings'], verbose = false): string {
  if (warnings.length === 0) return '  none';
  if (verbose) return warnings.map((w) => `  ! ${w.code}: ${w.message}`).join('\n');
  const byCode = new Map<string, Manifest['warnings']>();
  for (const w of warnings) byCode.set(w.code, [...(byCode.get(w.code) ?? []), w]);
  const lines: string[] = [];
  for (const [code, list] of byCode) {
    if (list.length === 1) lines.push(`  ! ${code}: ${list[0].message}`);
    else lines.push(`  ! ${code} ×${list.length}: ${list[0].message} (and ${list.length - 1} more like it)`);
  }
  const grouped = lines.length < warnings.length;
  return `${lines.join('\n')}${grouped ? '\n  (every warning is in the manifest; --verbose prints them all)' : ''}`;
}
