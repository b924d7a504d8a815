import type { z } from 'zod';
import type { AtomicSink } from './atomic-sink.ts';

/** An input a source left out (a company, a series, a symbol), listed in the build summary. */
export interface SkippedInput {
  source: string;
  id: string;
  reason: string;
}

/**
 * What one source hands back to the build beyond the rows, warnings and accounting it wrote through the
 * sink (the build counts those itself). Its summary lines go to `ctx.log` as the source runs, so they
 * interleave with the live clients' progress lines as before.
 */
export interface SourceReport {
  skipped: SkippedInput[];
  /** Per-instrument price-quality rows for the build summary (the prices source's PriceQualitySummaryRow). */
  priceQuality?: readonly unknown[];
  /** Series and rows a source wrote outside the sink (scale, inside DuckDB): the sink never saw them. */
  generated?: { series: number; rows: number };
}

/** What every source gets from the build that runs it. */
export interface SourceContext {
  /** Folder the pipeline's relative paths resolve against. */
  cwd: string;
  /** A source's `cache_dir` resolved against cwd, or the build's default response cache when unset. */
  cacheDir(dir: string | undefined): string;
  log(line: string): void;
  /**
   * Runs synchronous generating or parsing work (seconds on a large pipeline) so that Ctrl-C acts at once
   * instead of when the source is done (audit 1.9).
   */
  interruptibly<T>(work: () => T): Promise<T>;
}

/** One raw file as `asof update` sees it now: hash, size and its first bytes (enough to tell its format). */
export interface SourceRawFile {
  name: string;
  sha256: string;
  bytes: number;
  head: string;
}

/**
 * The files of a raw folder a source's reader reads: the names `keep` accepts, and those of the named
 * subfolders (a Lean price folder's map_files/, factor_files/, daily/), keyed `sub/name` as their inputs are.
 */
export interface RawDirFilter {
  keep(name: string): boolean;
  subdirs?: readonly string[];
}

/** One input OLD's manifest lists: the label its reader wrote (`source`), its key and hash. */
export interface SourceOldInput {
  source: string;
  key: string;
  sha256: string;
}

/** Raw inputs OLD read that are gone or changed, and files OLD did not read. */
export interface RawInputChange {
  added: string[];
  changed: string[];
  removed: string[];
}

/**
 * What `asof update` tells a source's `planUpdate` besides its section now. The build has already
 * established that nothing outside the sources changed (else it runs a full build and asks no source).
 */
export interface SourceUpdateContext {
  /** Whether the section differs from OLD's (compared as canonical JSON). */
  sectionChanged: boolean;
  /** Every input OLD's manifest lists; a source picks its own by their `source` label. */
  oldInputs: readonly SourceOldInput[];
  /**
   * Lists the section's `raw_dir` now (resolved against the pipeline's folder), hashed, as `filter` says
   * its reader reads it. Throws UPDATE_RAW_DIR_NOT_FOUND, naming `sources.<name>.raw_dir`, when it is no folder.
   */
  listRawDir(dir: string, filter: RawDirFilter): ReadonlyMap<string, SourceRawFile>;
  /** The sha256 of a file (a path as the pipeline wrote it) now, or null when it cannot be read. */
  hashFile(path: string): string | null;
}

/**
 * What an update does with one source: reuse OLD's rows, run it again, or decide per entity (the build
 * knows how for prices and edgar). `files` is its raw folder as listed now (the per-entity planning reads
 * it) and `change` how it differs from OLD's inputs (shown by the update); both only when it listed one.
 */
export type SourceUpdatePlan = SourceUpdateAction & {
  files?: ReadonlyMap<string, SourceRawFile>;
  change?: RawInputChange;
};

/** The action alone: reuse OLD's rows, run the source again (saying why), or decide per entity. */
export type SourceUpdateAction =
  | { action: 'reuse' }
  | { action: 'rerun'; reason: string }
  | { action: 'entities' };

/**
 * The generic rule of `asof update` for a source without `planUpdate`: read again on every update (it
 * holds vintage tables or generated data an update cannot diff file by file).
 */
export const RERUN_EVERY_UPDATE: SourceUpdatePlan = {
  action: 'rerun',
  reason: 'read again on every update (vintage tables, generated data)',
};

/**
 * The contract each `@asof/source-*` package fulfils with one exported object, so that the build runs the
 * sources as a loop over a registry instead of knowing each one's options and summary shapes. `S` is the
 * zod schema of its section (the package's `<Name>Config`), `X` what the source needs from the build beyond
 * the common context (the taxonomy registry, DuckDB), `N` its name: @asof/build composes the pipeline's
 * `sources` block and its `SourceName` type from the registered sources' names and schemas.
 */
export interface Source<
  S extends z.ZodType = z.ZodType,
  X extends object = object,
  N extends string = string,
> {
  /** The pipeline's `sources.<name>` key. */
  readonly name: N;
  /** The zod schema of its `sources.<name>` section (a strict zod object). */
  readonly schema: S;
  /**
   * The smallest section that configures it, as a pipeline file would hold it: documentation, and what
   * the registry's parity test parses with `schema` (packages/build/src/source-registry.test.ts).
   */
  readonly example: z.input<S>;
  /** Fields of its section whose values are secret (never logged or written to a manifest). */
  readonly secrets: readonly string[];
  /** Environment variables holding its credentials (keys and user agents stay out of the pipeline file). */
  readonly credentials: readonly string[];
  /**
   * Where its rows go: through the sink (the default, counted per source), or generated inside the
   * build's DuckDB (needs the build's `duck`).
   */
  readonly rows?: 'sink' | 'duck';
  /** Throws when a live path lacks its credentials; the build calls it for every source before any runs. */
  checkCredentials?(config: z.output<S>): void;
  ingest(config: z.output<S>, sink: AtomicSink, ctx: SourceContext & X): Promise<SourceReport>;
  /**
   * How `asof update` treats the source, given its section now: a raw-folder source compares its files
   * with the inputs OLD read (`ctx.listRawDir`, `compareRawInputs`) and reuses OLD's rows when they are the
   * same. Without it the source is read again on every update (RERUN_EVERY_UPDATE).
   */
  planUpdate?(config: z.output<S>, ctx: SourceUpdateContext): SourceUpdatePlan;
}
