import {
  compareRawInputs,
  type RawDirFilter,
  rawInputsUnchanged,
  type SourceUpdateContext,
  type SourceUpdatePlan,
} from '@asof/schema';
import type { EdgarConfig } from './edgar-config.ts';

/** The files of a raw folder the EDGAR reader reads: companyfacts, submissions and ticker JSON, gzipped or not. */
export const EDGAR_RAW_FILES: RawDirFilter = { keep: (name) => /\.json(\.gz)?$/i.test(name) };

/**
 * How `asof update` treats the EDGAR section. Only a raw folder can be compared file by file: live tickers
 * and synthetic companies are read again. A folder holding OLD's inputs is reused; one whose files changed
 * is decided per company by the build (its files are per company, so the others' rows are kept).
 */
export function planEdgarUpdate(e: EdgarConfig, ctx: SourceUpdateContext): SourceUpdatePlan {
  if (e.raw_dir === undefined || e.tickers !== undefined || e.synthetic !== undefined)
    return { action: 'rerun', reason: 'live or synthetic' };
  const files = ctx.listRawDir(e.raw_dir, EDGAR_RAW_FILES);
  if (ctx.sectionChanged) return { action: 'rerun', reason: 'its pipeline block changed', files };
  const change = compareRawInputs(
    files,
    ctx.oldInputs.filter((i) => i.source === 'edgar'),
  );
  return { action: rawInputsUnchanged(change) ? 'reuse' : 'entities', files, change };
}
