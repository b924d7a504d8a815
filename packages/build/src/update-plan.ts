import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { canonicalJson } from '@asof/manifest';
import { InputError, type Manifest, shownValue } from '@asof/schema';
import { PRICE_RAW_SUBDIRS } from '@asof/source-prices';
import type { Registry } from '@asof/taxonomy';
import type { PipelineConfig } from './pipeline-config.ts';

/** One raw file as it is now: hash, size and its first bytes (enough to tell its format). */
export interface RawFile {
  name: string;
  sha256: string;
  bytes: number;
  head: string;
}

/** What an update does with one pipeline source. */
export type SourcePlan =
  /** Its raw inputs are OLD's, byte for byte: its series, rows, warnings and inputs come from OLD. */
  | { source: 'edgar' | 'fred' | 'prices'; action: 'reuse' }
  /** Run again in full, like a build would (changed raw folder, live, synthetic, embedded, scale). */
  | { source: string; action: 'rerun'; reason: string }
  /** A raw folder with changes, decided per instrument (prices) or company (EDGAR). */
  | { source: 'prices' | 'edgar'; action: 'entities' };

export interface UpdatePlan {
  /** Why the update must run a full build instead (config, registry or versions changed), or null. */
  fullRebuild: string | null;
  sources: SourcePlan[];
  /** Raw folders as listed now, per source. */
  raw: Partial<Record<'edgar' | 'fred' | 'prices', Map<string, RawFile>>>;
  /** Raw inputs OLD read that are gone or changed, and files OLD did not read, per source. */
  changes: { source: string; added: string[]; changed: string[]; removed: string[] }[];
}

const SOURCES = ['edgar', 'fred', 'prices'] as const;

/** The input label of an index membership file (ingestMembershipCsv). */
export const MEMBERSHIP_INPUT = 'prices:membership';

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function hashFile(path: string): string | null {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return null;
  }
}

/**
 * Every regular, non-hidden file of `dir` whose name `keep` accepts, hashed; and those of the named
 * subfolders (a Lean price folder's map_files/, factor_files/, daily/), keyed `sub/name` as their inputs are.
 */
export function scanRawDir(
  dir: string,
  keep: (name: string) => boolean,
  subdirs: readonly string[] = [],
): Map<string, RawFile> {
  const out = new Map<string, RawFile>();
  const names = readdirSync(dir).sort();
  for (const sub of subdirs) {
    const path = join(dir, sub);
    if (!names.includes(sub) || !statSync(path).isDirectory()) continue;
    for (const name of readdirSync(path).sort()) if (!name.startsWith('.')) names.push(`${sub}/${name}`);
  }
  for (const name of names) {
    if (name.startsWith('.') || !keep(name)) continue;
    const path = join(dir, name);
    if (!statSync(path).isFile()) continue;
    const buf = readFileSync(path);
    out.set(name, {
      name,
      sha256: createHash('sha256').update(buf).digest('hex'),
      bytes: buf.length,
      head: buf.subarray(0, 4096).toString('utf8'),
    });
  }
  return out;
}

/** The files a source's raw-folder reader lists (the same filters as its ingest function). */
const KEEP: Record<(typeof SOURCES)[number], (name: string) => boolean> = {
  edgar: (n) => /\.json(\.gz)?$/i.test(n),
  fred: (n) => /\.(json|csv)$/i.test(n),
  prices: (n) => /\.(json|csv)$/i.test(n),
};

/** OLD's raw inputs of a source: the `source` labels its raw-folder reader writes. */
export function isInputOf(source: string, inputSource: string): boolean {
  if (source === 'prices') return inputSource.startsWith('prices:');
  return inputSource === source;
}

/** A source block that reads only its raw folder (no live, no synthetic part) can be reused or diffed by file. */
function rawOnly(block: Record<string, unknown> | undefined): boolean {
  if (block === undefined || typeof block.raw_dir !== 'string') return false;
  const live = ['tickers', 'series', 'symbols', 'synthetic'].some((k) => block[k] !== undefined);
  return !live && block.catalog !== true;
}

/**
 * Compares what OLD was built from with what the pipeline reads now. Anything but raw inputs that differs
 * (the pipeline outside its sources, the registry, the asof or DuckDB version) means a full build: those
 * change every table. A source block that changed, or reads live APIs, synthetic data or no raw folder,
 * is run again; a raw-folder source whose files are OLD's is reused.
 */
export function planUpdate(
  old: Manifest,
  config: PipelineConfig,
  context: {
    cwd: string;
    registry: Registry;
    asofVersion: string;
    duckdbVersion: string;
    /** What `cwd` is, for a message (`the folder of t1/pipeline.json`); default the folder itself. */
    pathsFrom?: string;
  },
): UpdatePlan {
  const plan: UpdatePlan = { fullRebuild: null, sources: [], raw: {}, changes: [] };
  const oldConfig = old.config as unknown as PipelineConfig;
  const { sources: oldSources, ...oldRest } = oldConfig;
  const { sources: newSources, ...newRest } = config;
  const registry = context.registry.files.map((f) => ({ name: f.name, sha256: f.sha256, bytes: f.bytes }));
  if (canonicalJson(oldRest) !== canonicalJson(newRest))
    plan.fullRebuild = 'the pipeline changed outside its sources';
  else if (canonicalJson(registry) !== canonicalJson(old.registry))
    plan.fullRebuild = 'the taxonomy registry changed';
  else if (old.created_by.asof_version !== context.asofVersion)
    plan.fullRebuild = `asof ${old.created_by.asof_version} built it, this is asof ${context.asofVersion}`;
  else if (old.created_by.duckdb_version !== context.duckdbVersion)
    plan.fullRebuild = `DuckDB ${old.created_by.duckdb_version} wrote it, this is DuckDB ${context.duckdbVersion}`;
  if (plan.fullRebuild !== null) return plan;

  const blocks = newSources as Record<string, Record<string, unknown> | undefined>;
  const oldBlocks = oldSources as Record<string, Record<string, unknown> | undefined>;
  for (const source of Object.keys(blocks).sort()) {
    const block = blocks[source];
    if (block === undefined) continue;
    const known = (SOURCES as readonly string[]).includes(source);
    if (!known || !rawOnly(block)) {
      plan.sources.push({
        source,
        action: 'rerun',
        reason: known ? 'live or synthetic' : 'read again on every update (vintage tables, generated data)',
      });
      continue;
    }
    const s = source as (typeof SOURCES)[number];
    const rawDir = resolve(context.cwd, block.raw_dir as string);
    if (!isFolder(rawDir)) {
      // Checked before any work: a missing folder is the pipeline's (or the working directory's) doing.
      throw new InputError(
        'UPDATE_RAW_DIR_NOT_FOUND',
        `sources.${s}.raw_dir "${shownValue(block.raw_dir as string)}": no folder at ${rawDir} (relative paths resolve against ${context.pathsFrom ?? context.cwd})\n  hint: run from the folder the paths are relative to, or pass the pipeline file: asof update --manifest OLD/manifest.json pipeline.json --out NEW`,
        { context: { field: `sources.${s}.raw_dir`, value: block.raw_dir, path: rawDir } },
      );
    }
    const files = scanRawDir(rawDir, KEEP[s], s === 'prices' ? PRICE_RAW_SUBDIRS : []);
    plan.raw[s] = files;
    if (canonicalJson(block) !== canonicalJson(oldBlocks[source] ?? null)) {
      plan.sources.push({ source, action: 'rerun', reason: 'its pipeline block changed' });
      continue;
    }
    // Index membership files (prices.membership) are inputs of the prices source but not in its folder:
    // they are listed by their pipeline path and compared where that path points now.
    const oldFiles = new Map(
      old.inputs
        .filter((i) => isInputOf(s, i.source) && i.source !== MEMBERSHIP_INPUT)
        .map((i) => [i.key, i.sha256] as const),
    );
    const change = { source, added: [] as string[], changed: [] as string[], removed: [] as string[] };
    for (const i of old.inputs) {
      if (i.source !== MEMBERSHIP_INPUT || s !== 'prices') continue;
      const now = hashFile(resolve(context.cwd, i.key));
      if (now === null) change.removed.push(i.key);
      else if (now !== i.sha256) change.changed.push(i.key);
    }
    const membershipChanged = change.changed.length + change.removed.length > 0;
    for (const f of files.values()) {
      const was = oldFiles.get(f.name);
      // A file OLD's reader skipped (not a file of the source) is in no input list, so OLD cannot tell
      // whether it changed since: it counts as added, and the source is read again.
      if (was === undefined) change.added.push(f.name);
      else if (was !== f.sha256) change.changed.push(f.name);
    }
    for (const name of oldFiles.keys()) if (!files.has(name)) change.removed.push(name);
    const same = change.added.length + change.changed.length + change.removed.length === 0;
    if (!same) plan.changes.push(change);
    plan.sources.push(
      same
        ? { source: s, action: 'reuse' }
        : membershipChanged
          ? { source: s, action: 'rerun', reason: 'a membership file changed' }
          : s === 'prices' || s === 'edgar'
            ? { source: s, action: 'entities' }
            : { source: s, action: 'rerun', reason: 'raw files changed' },
    );
  }
  for (const source of Object.keys(oldBlocks)) {
    if (oldBlocks[source] !== undefined && blocks[source] === undefined)
      plan.changes.push({ source, added: [], changed: [], removed: ['(source removed from the pipeline)'] });
  }
  return plan;
}

/** True when nothing an update could add exists: every source is reused and none was removed. */
export function planIsNoop(plan: UpdatePlan): boolean {
  return (
    plan.fullRebuild === null && plan.changes.length === 0 && plan.sources.every((s) => s.action === 'reuse')
  );
}
