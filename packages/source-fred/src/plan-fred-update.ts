import {
  compareRawInputs,
  type RawDirFilter,
  rawInputsUnchanged,
  type SourceUpdateContext,
  type SourceUpdatePlan,
} from '@asof/schema';
import type { FredConfig } from './fred-config.ts';

/** The files of a raw folder the FRED reader reads: API JSON responses and fredgraph CSVs. */
export const FRED_RAW_FILES: RawDirFilter = { keep: (name) => /\.(json|csv)$/i.test(name) };

/**
 * How `asof update` treats the FRED section. Only a raw folder can be compared file by file: live series,
 * the catalog and synthetic ALFRED are read again. A folder holding OLD's inputs is reused; one whose files
 * changed is read again whole (a series' vintages are stitched across files, so there is no per-series plan).
 */
export function planFredUpdate(f: FredConfig, ctx: SourceUpdateContext): SourceUpdatePlan {
  if (f.raw_dir === undefined || f.series !== undefined || f.synthetic !== undefined || f.catalog)
    return { action: 'rerun', reason: 'live or synthetic' };
  const files = ctx.listRawDir(f.raw_dir, FRED_RAW_FILES);
  if (ctx.sectionChanged) return { action: 'rerun', reason: 'its pipeline block changed', files };
  const change = compareRawInputs(
    files,
    ctx.oldInputs.filter((i) => i.source === 'fred'),
  );
  return rawInputsUnchanged(change)
    ? { action: 'reuse', files, change }
    : { action: 'rerun', reason: 'raw files changed', files, change };
}
