import {
  AsofError,
  type BuildWarning,
  type IngestAccounting,
  type Manifest,
  OUT_OF_SCOPE_REASONS,
  type RawInput,
} from '@asof/schema';

/** A reason that drops more than this share of a file's mappable records is a warning naming the file. */
export const DROP_WARNING_SHARE = 0.01;

/** Whether a drop reason is out of asof's scope (never warned about; marked in the console table). */
export const isOutOfScope = (reason: string) => OUT_OF_SCOPE_REASONS.includes(reason.split(':')[0]);

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
