import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Duck } from '@asof/duck';
import { canonicalJson, finalizeManifest, manifestOutput, sha256Hex, writeManifest } from '@asof/manifest';
import { buildSegments, SEGMENTS_TABLE_SPEC } from '@asof/patterns';
import type { BuildWarning, Manifest, ManifestOutput, PipelineConfig } from '@asof/schema';
import { defaultRegistry, type Registry } from '@asof/taxonomy';
import {
  assertInvariants,
  assertKnownUnits,
  createStagingTables,
  loadRegistryTables,
  runModels,
  StageSink,
  UNIVERSE_MODELS,
  writeTable,
  writeUniverse,
} from '@asof/transform';
import { gitState } from './git-state.ts';
import { replaceDir } from './replace-dir.ts';
import { runSources } from './run-sources.ts';

export const ASOF_VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;

export interface BuildOptions {
  config: PipelineConfig;
  /** Absolute output folder (already checked to lie inside the working directory). */
  outDir: string;
  registry?: Registry;
  log?: (line: string) => void;
  /** Folder relative source paths (raw_dir, cache_dir) resolve against; default process.cwd(). */
  cwd?: string;
}

export interface BuildResult {
  manifest: Manifest;
  manifestPath: string;
  seconds: number;
}

/**
 * Builds a universe: sources → staging → models → invariants → Parquet → manifest. Everything is written
 * under a temp folder beside `outDir` and renamed into place at the end; a failure leaves no partial output.
 */
export async function buildUniverse(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const { config, outDir } = options;
  const registry = options.registry ?? defaultRegistry();
  const tmp = `${outDir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const step = (what: string) => log(`[${((performance.now() - started) / 1000).toFixed(1)}s] ${what}`);
  let duck: Duck | undefined;
  // duckdb.storage 'file': the working tables live compressed in a database file beside the temp folder
  // (not inside it: the folder becomes the output), removed with its write-ahead log however the build ends.
  const dbFile = config.duckdb.storage === 'file' ? `${tmp}.duckdb` : undefined;
  const removeDbFile = () => {
    if (dbFile) for (const f of [dbFile, `${dbFile}.wal`]) rmSync(f, { force: true });
  };
  try {
    duck = await Duck.open({
      threads: config.duckdb.threads,
      memoryLimit: config.duckdb.memory_limit,
      tempDirectory: config.duckdb.temp_directory,
      ...(dbFile ? { path: dbFile } : {}),
    });
    await createStagingTables(duck);
    await loadRegistryTables(duck, registry);
    const sink = await StageSink.create(duck);
    const report = await runSources(config, sink, {
      cwd: options.cwd ?? process.cwd(),
      log: step,
      duck,
      registry,
    });
    sink.close();
    for (const k of report.skipped) {
      sink.addWarning({ code: 'SOURCE_SKIPPED', message: `${k.source} ${k.id} skipped: ${k.reason}` });
    }
    step(`staged ${sink.observationCount.toLocaleString('en-US')} observation rows`);
    await assertKnownUnits(duck, registry);
    await runModels(duck, UNIVERSE_MODELS, { eval_start: `${config.eval_start}T00:00:00Z` });
    await assertInvariants(duck);
    step('models built, invariants hold');
    await buildSegments(duck, { log: step });
    const written = [...(await writeUniverse(duck, tmp)), await writeTable(duck, tmp, SEGMENTS_TABLE_SPEC)];
    step(`wrote ${written.length} Parquet files`);
    const outputs: ManifestOutput[] = [];
    for (const w of written) outputs.push(await manifestOutput(tmp, w));
    const summary = { ...(await summarize(duck)), price_quality: report.priceQuality };
    const git = gitState(process.cwd());
    const manifest = finalizeManifest({
      manifest_version: 1,
      name: config.name,
      kind: 'universe',
      parent_dataset_id: null,
      created_by: {
        asof_version: ASOF_VERSION,
        duckdb_version: await duck.version(),
        git_commit: git.commit,
        git_dirty: git.dirty,
      },
      config: config as unknown as Record<string, unknown>,
      config_sha256: sha256Hex(canonicalJson(config)),
      registry: registry.files.map((f) => ({ name: f.name, sha256: f.sha256, bytes: f.bytes })),
      inputs: [...sink.inputs].sort((a, b) => (a.source + a.key < b.source + b.key ? -1 : 1)),
      outputs,
      warnings: mergeWarnings(sink.warnings),
      summary,
    });
    writeManifest(join(tmp, 'manifest.json'), manifest);
    duck.close();
    duck = undefined;
    removeDbFile();
    replaceDir(tmp, outDir);
    step(`done: ${join(outDir, 'manifest.json')}`);
    return {
      manifest,
      manifestPath: join(outDir, 'manifest.json'),
      seconds: (performance.now() - started) / 1000,
    };
  } catch (err) {
    duck?.close();
    removeDbFile();
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

function mergeWarnings(warnings: BuildWarning[]): Manifest['warnings'] {
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
