import {
  compareRawInputs,
  type RawDirFilter,
  rawInputsUnchanged,
  type SourceUpdateContext,
  type SourceUpdatePlan,
} from '@asof/schema';
import { PRICE_RAW_SUBDIRS } from './ingest-prices-raw-dir.ts';
import { MEMBERSHIP_INPUT } from './parse-membership-csv.ts';
import type { PricesConfig } from './prices-config.ts';

/** The files of a raw folder the prices reader reads: price JSON and CSV, with a Lean folder's subfolders. */
export const PRICE_RAW_FILES: RawDirFilter = {
  keep: (name) => /\.(json|csv)$/i.test(name),
  subdirs: PRICE_RAW_SUBDIRS,
};

/**
 * How `asof update` treats the prices section. Only a raw folder can be compared file by file: live symbols
 * and synthetic charts are read again. A folder holding OLD's inputs is reused; one whose files changed is
 * decided per instrument by the build; a changed index membership file means the section is read again.
 */
export function planPricesUpdate(p: PricesConfig, ctx: SourceUpdateContext): SourceUpdatePlan {
  if (p.raw_dir === undefined || p.symbols !== undefined || p.synthetic !== undefined)
    return { action: 'rerun', reason: 'live or synthetic' };
  const files = ctx.listRawDir(p.raw_dir, PRICE_RAW_FILES);
  if (ctx.sectionChanged) return { action: 'rerun', reason: 'its pipeline block changed', files };
  // Index membership files are inputs of the section but not in its folder: they are listed by their
  // pipeline path and compared where that path points now.
  const membership = { changed: [] as string[], removed: [] as string[] };
  for (const i of ctx.oldInputs) {
    if (i.source !== MEMBERSHIP_INPUT) continue;
    const now = ctx.hashFile(i.key);
    if (now === null) membership.removed.push(i.key);
    else if (now !== i.sha256) membership.changed.push(i.key);
  }
  const folder = compareRawInputs(
    files,
    ctx.oldInputs.filter((i) => i.source.startsWith('prices:') && i.source !== MEMBERSHIP_INPUT),
  );
  const change = {
    added: folder.added,
    changed: [...membership.changed, ...folder.changed],
    removed: [...membership.removed, ...folder.removed],
  };
  if (rawInputsUnchanged(change)) return { action: 'reuse', files, change };
  if (membership.changed.length + membership.removed.length > 0)
    return { action: 'rerun', reason: 'a membership file changed', files, change };
  return { action: 'entities', files, change };
}
