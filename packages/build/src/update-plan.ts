import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { canonicalJson } from '@asof/manifest';
import {
  InputError,
  type Manifest,
  type RawDirFilter,
  type RawInputChange,
  RERUN_EVERY_UPDATE,
  rawInputsUnchanged,
  type SourceRawFile,
  type SourceUpdateAction,
  type SourceUpdateContext,
  shownValue,
} from '@asof/schema';
import type { Registry } from '@asof/taxonomy';
import type { PipelineConfig } from './pipeline-config.ts';
import { SOURCE_REGISTRY } from './source-registry.ts';

/** One raw file as it is now: hash, size and its first bytes (enough to tell its format). */
export type RawFile = SourceRawFile;

/** What an update does with one pipeline source (its Source's `planUpdate` decides; update-universe.ts acts). */
export type SourcePlan = { source: string } & SourceUpdateAction;

export interface UpdatePlan {
  /** Why the update must run a full build instead (config, registry or versions changed), or null. */
  fullRebuild: string | null;
  sources: SourcePlan[];
  /** Raw folders as listed now, per source that lists one (edgar, fred, prices). */
  raw: Partial<Record<string, ReadonlyMap<string, RawFile>>>;
  /** Raw inputs OLD read that are gone or changed, and files OLD did not read, per source. */
  changes: ({ source: string } & RawInputChange)[];
}

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

/** What the update offers one source's planUpdate: its raw folder listed and OLD's inputs to compare with. */
function updateContext(
  name: string,
  sectionChanged: boolean,
  old: Manifest,
  context: { cwd: string; pathsFrom?: string },
): SourceUpdateContext {
  return {
    sectionChanged,
    oldInputs: old.inputs,
    listRawDir(dir: string, filter: RawDirFilter) {
      const rawDir = resolve(context.cwd, dir);
      if (!isFolder(rawDir)) {
        // Checked before any work: a missing folder is the pipeline's (or the working directory's) doing.
        throw new InputError(
          'UPDATE_RAW_DIR_NOT_FOUND',
          `sources.${name}.raw_dir "${shownValue(dir)}": no folder at ${rawDir} (relative paths resolve against ${context.pathsFrom ?? context.cwd})\n  hint: run from the folder the paths are relative to, or pass the pipeline file: asof update --manifest OLD/manifest.json pipeline.json --out NEW`,
          { context: { field: `sources.${name}.raw_dir`, value: dir, path: rawDir } },
        );
      }
      return scanRawDir(rawDir, filter.keep, filter.subdirs);
    },
    hashFile: (path) => hashFile(resolve(context.cwd, path)),
  };
}

/**
 * Compares what OLD was built from with what the pipeline reads now. Anything but raw inputs that differs
 * (the pipeline outside its sources, the registry, the asof or DuckDB version) means a full build: those
 * change every table. Otherwise each configured source decides with its `planUpdate` (in its package):
 * a raw-folder source whose files are OLD's is reused, a changed block or one reading live APIs or
 * synthetic data is run again; a source without `planUpdate` is run again on every update.
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

  const blocks = newSources as Record<string, unknown>;
  const oldBlocks = oldSources as Record<string, unknown>;
  const registered = new Map(SOURCE_REGISTRY.map((s) => [s.name, s]));
  // Planned in name order, the order the update lists its steps and changes in.
  for (const name of Object.keys(blocks).sort()) {
    const block = blocks[name];
    if (block === undefined) continue;
    const sectionChanged = canonicalJson(block) !== canonicalJson(oldBlocks[name] ?? null);
    const source = registered.get(name);
    const decided =
      source?.planUpdate?.(block, updateContext(name, sectionChanged, old, context)) ?? RERUN_EVERY_UPDATE;
    const { files, change, ...action } = decided;
    if (files !== undefined) plan.raw[name] = files;
    if (change !== undefined && !rawInputsUnchanged(change)) plan.changes.push({ source: name, ...change });
    plan.sources.push({ source: name, ...action });
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
