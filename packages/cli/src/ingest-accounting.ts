import {
  AsofError,
  type BuildWarning,
  type IngestAccounting,
  type Manifest,
  OUT_OF_SCOPE_REASONS,
  type RawInput,
} from '@asof/schema';
import { formatTable } from './format-table.ts';

/** A reason that drops more than this share of a file's mappable records is a warning naming the file. */
export const DROP_WARNING_SHARE = 0.01;

const isOutOfScope = (reason: string) => OUT_OF_SCOPE_REASONS.includes(reason.split(':')[0]);

/**
 * The accounting as the manifest records it: one entry per (source, file), sorted, each checked to add up.
 * A source whose counts do not add up is a bug in asof, not in the input, so it stops the build.
 */
export function settleAccounting(entries: readonly IngestAccounting[]): IngestAccounting[] {
  for (const e of entries) {
    const dropped = Object.values(e.dropped).reduce((a, b) => a + b, 0);
    if (e.mapped + dropped !== e.read || e.mappable > e.read || e.mappable < 0) {
      throw new AsofError(
        'ACCOUNTING_MISMATCH',
        `${e.source} ${e.file}: ${e.read} ${e.record}s read but ${e.mapped} mapped + ${dropped} dropped (mappable ${e.mappable}); this is a bug in asof's ${e.source} reader, please report it with the file`,
        { context: { source: e.source, file: e.file } },
      );
    }
  }
  const key = (e: IngestAccounting) => `${e.source}\u0000${e.file}`;
  return [...entries].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** One warning per (file, reason) that drops more than 1% of the file's mappable records. */
export function accountingWarnings(entries: readonly IngestAccounting[]): BuildWarning[] {
  const out: BuildWarning[] = [];
  for (const e of entries) {
    for (const [reason, n] of Object.entries(e.dropped)) {
      if (isOutOfScope(reason) || !(n > DROP_WARNING_SHARE * e.mappable)) continue;
      const share = e.mappable > 0 ? ((100 * n) / e.mappable).toFixed(1) : '100';
      out.push({
        code: 'INGEST_DROPPED',
        message: `${e.source} ${e.file}: ${n} of ${e.mappable} mappable ${e.record}s (${share}%) dropped as ${reason}; the per-file counts are in the manifest's summary.ingest_accounting`,
        count: n,
      });
    }
  }
  return out;
}

/**
 * The accounting entries of OLD that `asof update` carries over: those of the inputs it keeps (same source
 * family and key), so the update's manifest lists what a build over the same inputs would.
 */
export function keptAccounting(old: Manifest, keptInputs: readonly RawInput[]): IngestAccounting[] {
  const entries = (old.summary as { ingest_accounting?: IngestAccounting[] }).ingest_accounting ?? [];
  const kept = new Set(keptInputs.map((i) => `${i.source.split(':')[0]}\u0000${i.key}`));
  return entries.filter((e) => kept.has(`${e.source}\u0000${e.file}`));
}

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
