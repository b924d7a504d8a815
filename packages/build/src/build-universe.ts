import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { vendorRestatementWarnings } from '@asof/diff';
import { asOutOfMemory, Duck, physicalMemoryBytes } from '@asof/duck';
import { canonicalJson, finalizeManifest, manifestOutput, sha256Hex, writeManifest } from '@asof/manifest';
import { faultPoint, makeSpillDir, type OutputWork, writeOutputDir } from '@asof/output';
import { buildSegments, CharacteristicsPool, SEGMENTS_TABLE_SPEC, WORKERS_FROM_ROWS } from '@asof/patterns';
import {
  type BuildWarning,
  elapsedStamp,
  type IngestAccounting,
  type Manifest,
  type ManifestOutput,
  memoryLimitBytes,
  type RawInput,
} from '@asof/schema';
import { defaultRegistry, type Registry } from '@asof/taxonomy';
import {
  assertInvariants,
  assertKnownUnits,
  createStagingTables,
  evalStartAfterDataWarning,
  loadRegistryTables,
  membershipWarnings,
  runModels,
  StageSink,
  shortEvalSeriesWarning,
  UNIVERSE_MODELS,
  type WrittenTable,
  writeTable,
  writeUniverse,
} from '@asof/transform';
import { type GitState, gitState } from './git-state.ts';
import { accountingWarnings, settleAccounting } from './ingest-accounting.ts';
import type { PipelineConfig } from './pipeline-config.ts';
import { pipelineFileToRecord } from './recorded-pipeline-file.ts';
import { runSources } from './run-sources.ts';
import { writesBesideSegments, writeUniverseBeside } from './write-universe-beside.ts';

// The workspace's packages share one version, so this package's is asof's (it moved here from the CLI's).
export const ASOF_VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;

export interface BuildOptions {
  config: PipelineConfig;
  /** Output folder (absolute, or relative to `cwd`): replaced only when absent, empty or asof's (docs/decisions/0010). */
  outDir: string;
  registry?: Registry;
  log?: (line: string) => void;
  /** Folder the pipeline's relative paths (raw_dir, cache_dir, temp_directory) resolve against; default process.cwd(). */
  cwd?: string;
  /** Where the default response cache `.asof-cache/http` lives (default: `cwd`). */
  cacheRoot?: string;
  /** Paths the build reads besides the pipeline's sources (e.g. the pipeline file): the output may not overlap them. */
  inputs?: string[];
  /** The pipeline file as the user named it, for messages about its fields. */
  pipelineLabel?: string;
  /** The universe this one updates (`asof update` when it rebuilds in full); null for a build. */
  parentDatasetId?: string | null;
  /**
   * The pipeline file the config came from (absolute), recorded as created_by.pipeline_file relative to
   * the universe's own folder (pipelineFileToRecord): `asof update` without a pipeline resolves OLD's
   * relative paths against its folder, as the build did. Outside dataset_id, as the git fields are.
   */
  pipelineFile?: string;
}

export interface BuildResult {
  manifest: Manifest;
  manifestPath: string;
  seconds: number;
}

/** Every path a pipeline makes the build read (or write, for caches): the output may not overlap one. */
export function pipelineInputs(config: PipelineConfig, base: string, cacheRoot: string): string[] {
  const s = config.sources;
  const dirs = [
    s.embedded?.real?.vega_dir,
    s.edgar?.raw_dir,
    s.fred?.raw_dir,
    s.prices?.raw_dir,
    ...(s.prices?.membership ?? []),
    s.fredmd?.raw_dir,
    s.rtdsm?.raw_dir,
    config.duckdb.temp_directory,
  ].filter((d): d is string => typeof d === 'string');
  const live = [
    s.edgar?.tickers ? s.edgar : undefined,
    s.fred?.series || s.fred?.catalog ? s.fred : undefined,
    s.prices?.symbols ? s.prices : undefined,
  ].filter((x) => x !== undefined);
  const caches = live.map((x) =>
    x.cache_dir ? resolve(base, x.cache_dir) : resolve(cacheRoot, '.asof-cache/http'),
  );
  return [...dirs, ...caches].map((d) => resolve(base, d));
}

/**
 * Builds a universe: sources → staging → models → invariants → Parquet → manifest. Everything is written
 * into a temp folder (DuckDB's database, WAL and spill files in its .work/) and switched into place in one
 * rename at the end (writeOutputDir); a failure or a kill leaves the previous output as it was.
 */
export async function buildUniverse(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const { config } = options;
  const cwd = options.cwd ?? process.cwd();
  const registry = options.registry ?? defaultRegistry();
  const step = (what: string) => log(`${elapsedStamp()} ${what}`);
  // Started now, read by the manifest: git runs beside the build instead of after it.
  const git = gitState(process.cwd());
  const { value: manifest, path } = await writeOutputDir(
    options.outDir,
    {
      command: 'asof build',
      writes: 'universe',
      cwd,
      inputs: [...(options.inputs ?? []), ...pipelineInputs(config, cwd, options.cacheRoot ?? cwd)],
      label: (m: Manifest) => m.dataset_id.slice(0, 12),
    },
    (work) => buildInto(work, { ...options, cwd, registry, git }, step),
  );
  step(`done: ${join(path, 'manifest.json')}`);
  return {
    manifest,
    manifestPath: join(path, 'manifest.json'),
    seconds: (performance.now() - started) / 1000,
  };
}

/** The build itself, writing into the temp folder `work.dir`. */
async function buildInto(
  work: OutputWork,
  options: BuildOptions & { cwd: string; registry: Registry; git: Promise<GitState> },
  step: (what: string) => void,
): Promise<Manifest> {
  const { config, registry } = options;
  const tmp = work.dir;
  let duck: Duck | undefined;
  let pool: CharacteristicsPool | undefined;
  try {
    // duckdb.storage 'file': the working tables live compressed in a database file in the temp output's
    // .work/ folder (with its WAL and spill files), so they go with it however the build ends.
    let spill = join(work.work, 'spill');
    if (config.duckdb.temp_directory) {
      // Named and marked as asof's and registered first: a kill leaves nothing the next command cannot remove.
      spill = makeSpillDir(resolve(options.cwd, config.duckdb.temp_directory), work.track);
    }
    const physical = physicalMemoryBytes();
    const limitBytes = memoryLimitBytes(config.duckdb.memory_limit, physical);
    if (limitBytes !== null && physical > 0 && limitBytes > physical) {
      // Allowed (a pipeline moves between machines), but DuckDB spills only past its limit.
      options.log?.(
        `warning: duckdb.memory_limit ${config.duckdb.memory_limit} is more than this machine's ${Math.round(physical / 1e6)}MB of RAM, so DuckDB will not spill to disk before the machine runs out of memory; give at most its RAM, or a share like '60%'`,
      );
    }
    duck = await Duck.open({
      threads: config.duckdb.threads,
      memoryLimit: config.duckdb.memory_limit,
      memoryLimitSource: { field: 'duckdb.memory_limit', file: options.pipelineLabel },
      tempDirectory: spill,
      ...(config.duckdb.storage === 'file' ? { path: join(work.work, 'build.duckdb') } : {}),
    });
    await createStagingTables(duck);
    await loadRegistryTables(duck, registry);
    const sink = await StageSink.create(duck);
    // A universe this big will compute its segment characteristics on worker threads: start them while
    // the sources run on one core, so their start-up (~0.6 CPU-s each through tsx, ~0.2 from the bin's bundle,
    // docs 0038) uses the idle one.
    sink.whenObservations(WORKERS_FROM_ROWS, () => {
      pool = new CharacteristicsPool(config.duckdb.threads).start();
    });
    const report = await runSources(config, sink, {
      cwd: options.cwd,
      cacheRoot: options.cacheRoot,
      log: step,
      duck,
      registry,
    });
    sink.close();
    for (const k of report.skipped) {
      sink.addWarning({ code: 'SOURCE_SKIPPED', message: `${k.source} ${k.id} skipped: ${k.reason}` });
    }
    const stagedRows = sink.observationCount + report.generatedRows;
    step(`staged ${stagedRows.toLocaleString('en-US')} observation rows`);
    await faultPoint('run:midway');
    await assertKnownUnits(duck, registry);
    await runModels(duck, UNIVERSE_MODELS, { eval_start: `${config.eval_start}T00:00:00Z` });
    await assertInvariants(duck);
    // The staged rows are not read again (observation_rows holds what the later steps read): freeing them
    // here lowers the build's peak memory by their size (~450 MB on the default universe), as the bench does.
    await duck.run('DROP TABLE stg_observations');
    const short = await shortEvalSeriesWarning(duck, config.eval_start);
    if (short !== null) sink.addWarning(short);
    const late = await evalStartAfterDataWarning(duck, config.eval_start);
    if (late !== null) sink.addWarning(late);
    for (const w of await membershipWarnings(duck, sink.warnings)) sink.addWarning(w);
    for (const w of await vendorRestatementWarnings(duck, sink.inputs)) sink.addWarning(w);
    step('models built, invariants hold');
    const segments = () => buildSegments(duck as Duck, { log: step, pool });
    let written: WrittenTable[];
    if (writesBesideSegments(stagedRows, limitBytes)) {
      written = await writeUniverseBeside(duck, tmp, segments);
    } else {
      await segments();
      written = await writeUniverse(duck, tmp);
    }
    written.push(await writeTable(duck, tmp, SEGMENTS_TABLE_SPEC));
    step(`wrote ${written.length} Parquet files`);
    const outputs: ManifestOutput[] = [];
    for (const w of written) outputs.push(await manifestOutput(tmp, w));
    const manifest = await universeManifest(duck, {
      config,
      registry,
      inputs: sink.inputs,
      outputs,
      warnings: sink.warnings,
      accounting: sink.accounting,
      priceQuality: report.priceQuality,
      parentDatasetId: options.parentDatasetId ?? null,
      git: options.git,
      pipelineFile:
        options.pipelineFile === undefined
          ? undefined
          : pipelineFileToRecord(options.pipelineFile, options.outDir),
    });
    writeManifest(join(tmp, 'manifest.json'), manifest);
    step('manifest written; switching the output');
    return manifest;
  } catch (err) {
    // DuckDB's out-of-memory text also reaches here from streams and appenders, not only Duck.run.
    throw asOutOfMemory(err, {
      field: 'duckdb.memory_limit',
      file: options.pipelineLabel,
      value: config.duckdb.memory_limit,
    });
  } finally {
    await pool?.close();
    duck?.close();
  }
}

/**
 * The manifest of a universe whose tables are in `duck` and whose files are listed in `outputs`: shared by
 * `asof build` and `asof update`, so an update's manifest is the build's by construction.
 */
export async function universeManifest(
  duck: Duck,
  m: {
    config: PipelineConfig;
    registry: Registry;
    inputs: readonly RawInput[];
    outputs: ManifestOutput[];
    warnings: readonly BuildWarning[];
    /** What each source did with each input file (summary.ingest_accounting; docs/decisions/0041). */
    accounting: readonly IngestAccounting[];
    priceQuality: unknown[];
    parentDatasetId: string | null;
    /** The checkout's state, when the caller started reading it earlier; read now otherwise. */
    git?: Promise<GitState>;
    /** created_by.pipeline_file (relative to the universe folder); left out when the pipeline came from no file. */
    pipelineFile?: string;
  },
): Promise<Manifest> {
  const accounting = settleAccounting(m.accounting);
  const summary = {
    ...(await summarize(duck)),
    price_quality: m.priceQuality,
    ingest_accounting: accounting,
  };
  const git = await (m.git ?? gitState(process.cwd()));
  return finalizeManifest({
    manifest_version: 1,
    name: m.config.name,
    kind: 'universe',
    parent_dataset_id: m.parentDatasetId,
    created_by: {
      asof_version: ASOF_VERSION,
      duckdb_version: await duck.version(),
      git_commit: git.commit,
      git_dirty: git.dirty,
      ...(m.pipelineFile === undefined ? {} : { pipeline_file: m.pipelineFile }),
    },
    config: m.config as unknown as Record<string, unknown>,
    config_sha256: sha256Hex(canonicalJson(m.config)),
    registry: m.registry.files.map((f) => ({ name: f.name, sha256: f.sha256, bytes: f.bytes })),
    inputs: [...m.inputs].sort((a, b) => (a.source + a.key < b.source + b.key ? -1 : 1)),
    outputs: m.outputs,
    warnings: mergeWarnings([...m.warnings, ...accountingWarnings(accounting)]),
    summary,
  });
}

/** Warnings with the same code and message become one, their counts added. */
export function mergeWarnings(warnings: readonly BuildWarning[]): Manifest['warnings'] {
  const byKey = new Map<string, BuildWarning>();
  for (const w of warnings) {
    const key = `${w.code}\u0000${w.message}`;
    const prev = byKey.get(key);
    byKey.set(key, prev ? { ...prev, count: (prev.count ?? 1) + (w.count ?? 1) } : w);
  }
  return [...byKey.values()].sort((a, b) => (a.code + a.message < b.code + b.message ? -1 : 1));
}

export interface SummaryRow {
  scope: string;
  category: string;
  frequency: string;
  series: number;
  observations: number;
  eval_targets: number;
}

async function summarize(duck: Duck): Promise<Record<string, unknown>> {
  const rows = await duck.all<Record<string, string | bigint>>(
    `SELECT s.scope, s.category, s.frequency, count(*) AS series, sum(o.n) AS observations,
            count(*) FILTER (WHERE s.eval_target) AS eval_targets
     FROM series s LEFT JOIN (SELECT series_id, count(*) AS n FROM observations GROUP BY series_id) o USING (series_id)
     GROUP BY ALL ORDER BY s.scope, s.category, s.frequency`,
  );
  const by: SummaryRow[] = rows.map((r) => ({
    scope: String(r.scope),
    category: String(r.category),
    frequency: String(r.frequency),
    series: Number(r.series),
    observations: Number(r.observations ?? 0),
    eval_targets: Number(r.eval_targets),
  }));
  const totals = await duck.one<Record<string, bigint>>(
    `SELECT (SELECT count(*) FROM series) AS series, (SELECT count(*) FROM observations) AS observations,
            (SELECT sum(n_revisions) FROM series) AS revisions, (SELECT count(*) FROM series WHERE eval_target) AS eval_targets,
            (SELECT count(*) FROM tasks) AS tasks, (SELECT count(*) FROM corporate_actions) AS corporate_actions,
            (SELECT count(*) FROM series WHERE is_synthetic) AS synthetic_series,
            (SELECT count(*) FROM series WHERE universe_kind = 'static') AS static_series`,
  );
  return {
    ...Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, Number(v ?? 0)])),
    by_scope_category_frequency: by,
  };
}
