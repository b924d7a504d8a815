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

/** One raw file as `asof update` sees it now. */
export interface SourceRawFile {
  name: string;
  sha256: string;
  bytes: number;
}

/** What an update does with one source: reuse OLD's rows, run it again, or decide per entity. */
export type SourceUpdatePlan =
  | { action: 'reuse' }
  | { action: 'rerun'; reason: string }
  | { action: 'entities' };

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
   * How `asof update` treats the source given OLD's config and its raw files now. Optional and not wired
   * yet: update plans edgar, fred and prices centrally (@asof/build's update-plan.ts).
   */
  planUpdate?(old: z.output<S>, files: ReadonlyMap<string, SourceRawFile>): SourceUpdatePlan;
}
