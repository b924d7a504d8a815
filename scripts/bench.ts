// FinVerse-scale build benchmark (SPEC §12): `npm run bench -- --scale 0.1`.
// Builds pipelines/scale.json stage by stage — generate, assemble, taxonomy/tasks, patterns, write
// Parquet + manifest, split, baselines (asof baselines on that split), run — and prints per stage wall
// seconds, rows/s and peak RSS, then a total line. The baselines stage also prints each baseline's time per
// 1,000 series and, where Rscript with R's forecast package is installed, asof's autoArima against R's
// auto.arima on the ARIMA reference series (packages/baselines/bench/arima-vs-r-timing.ts).
// Measurements belong here, never in unit tests.
import { mkdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ASOF_VERSION, loadPipeline, PipelineConfig } from '@asof/build';
import { Duck, keyRanges, loadSql, MAX_ROWS_PER_FILE, partPath, sortWithCodes } from '@asof/duck';
import { canonicalJson, finalizeManifest, manifestOutput, sha256Hex, writeManifest } from '@asof/manifest';
import { writeOutputDir } from '@asof/output';
import * as patterns from '@asof/patterns';
import * as runner from '@asof/runner';
import { FREQUENCIES, type ManifestOutput } from '@asof/schema';
import { generateScaleUniverse } from '@asof/source-scale';
import * as split from '@asof/split';
import { defaultBaselineThreads } from '@asof/split';
import { defaultRegistry } from '@asof/taxonomy';
import {
  assertInvariants,
  assertKnownUnits,
  createObservationCodes,
  createStagingTables,
  loadRegistryTables,
  OBSERVATION_CODES,
  OBSERVATION_COLUMNS,
  runModels,
  stagedObservationTexts,
  UNIVERSE_MODELS,
  type WrittenTable,
  writeTable,
  writeUniverse,
} from '@asof/transform';
import { DEFAULT_RSCRIPT, median, timeArimaVsR } from '../packages/baselines/bench/arima-vs-r-timing.ts';

const { values: args } = parseArgs({
  options: {
    scale: { type: 'string', default: '0.01' },
    pipeline: { type: 'string', default: 'pipelines/scale.json' },
    out: { type: 'string' },
    threads: { type: 'string' },
    'memory-limit': { type: 'string' },
    storage: { type: 'string' },
    'skip-patterns': { type: 'boolean', default: false },
    'skip-split': { type: 'boolean', default: false },
    'skip-run': { type: 'boolean', default: false },
    'skip-baselines': { type: 'boolean', default: false },
    // asof baselines --threads (default: the machine's cores, at most 8).
    'baseline-threads': { type: 'string' },
    // Runs of the R comparison after the baselines stage (0: none); its median is printed.
    'r-runs': { type: 'string', default: '1' },
    rscript: { type: 'string', default: DEFAULT_RSCRIPT },
    keep: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});

const root = resolve(import.meta.dirname, '..');
const scale = Number(args.scale);
if (!(scale > 0 && scale <= 4)) {
  console.error(`bench: --scale ${args.scale}: expected a number in (0, 4], e.g. --scale 0.1`);
  process.exit(2);
}
const base = loadPipeline(resolve(root, args.pipeline));
if (!base.sources.scale) {
  console.error(`bench: ${args.pipeline} has no sources.scale block (see pipelines/scale.json)`);
  process.exit(2);
}
const config = PipelineConfig.parse({
  ...base,
  duckdb: {
    ...base.duckdb,
    ...(args.threads ? { threads: Number(args.threads) } : {}),
    ...(args['memory-limit'] ? { memory_limit: args['memory-limit'] } : {}),
    ...(args.storage ? { storage: args.storage } : {}),
  },
  sources: { scale: { ...base.sources.scale, scale } },
});
const outDir = resolve(root, args.out ?? join('out', 'bench', `scale-${scale}`));

interface StageRow {
  stage: string;
  seconds: number;
  /** user + system CPU seconds of this process (DuckDB threads included): load-independent cost. */
  cpu_seconds: number;
  rows: number;
  rows_per_second: number;
  peak_rss_mb: number;
  rss_mb: number;
  note?: string;
}
const rows: StageRow[] = [];
const mb = (kb: number) => Math.round(kb / 1024);
const started = performance.now();
const startedCpu = process.cpuUsage();

function line(r: StageRow): string {
  return [
    r.stage.padEnd(16),
    `${r.seconds.toFixed(1).padStart(8)} s`,
    `cpu ${r.cpu_seconds.toFixed(1).padStart(7)} s`,
    `${r.rows.toLocaleString('en-US').padStart(13)} rows`,
    `${Math.round(r.rows_per_second).toLocaleString('en-US').padStart(11)} rows/s`,
    `peak RSS ${String(r.peak_rss_mb).padStart(6)} MB`,
    `(now ${r.rss_mb} MB)`,
    r.note ?? '',
  ].join('  ');
}

async function stage(name: string, fn: () => Promise<{ rows: number; note?: string }>): Promise<void> {
  const t = performance.now();
  const cpu = process.cpuUsage();
  const { rows: n, note } = await fn();
  const seconds = (performance.now() - t) / 1000;
  const used = process.cpuUsage(cpu);
  const r: StageRow = {
    stage: name,
    seconds,
    cpu_seconds: (used.user + used.system) / 1e6,
    rows: n,
    rows_per_second: seconds > 0 ? n / seconds : 0,
    peak_rss_mb: mb(process.resourceUsage().maxRSS),
    rss_mb: Math.round(process.memoryUsage().rss / 1048576),
    note,
  };
  rows.push(r);
  if (!args.json) console.log(line(r));
}

/** Sub-step progress of a stage (where its time goes), indented under the stage lines. */
const detail = (text: string) => {
  if (!args.json) console.log(`    ${text}`);
};

/** A bench-only model, scripts/sql/<name>.sql. */
const benchSql = (name: string) => loadSql(new URL('./sql/', import.meta.url), name);

const count = async (duck: Duck, table: string) =>
  Number((await duck.one<{ n: bigint }>(`SELECT count(*) AS n FROM ${table}`)).n);

const registry = defaultRegistry();
let observations = 0;
let datasetId = '';
const written: WrittenTable[] = [];
// The build stages write into a temp output switched into place as `asof build` does (docs/decisions/0010):
// the database, WAL and spill files live in its .work/ folder, one per process.
await writeOutputDir(
  outDir,
  { command: 'asof bench', writes: 'universe', label: () => datasetId.slice(0, 12) },
  async (work) => {
    const outDir = work.dir;
    const spillDir = join(work.work, 'spill');
    if (!args.json) {
      console.log(
        `bench: scale ${scale}, DuckDB threads ${config.duckdb.threads}, memory_limit ${config.duckdb.memory_limit}, storage ${config.duckdb.storage ?? 'memory'}, spill ${spillDir}`,
      );
    }
    const duck = await Duck.open({
      threads: config.duckdb.threads,
      memoryLimit: config.duckdb.memory_limit,
      tempDirectory: spillDir,
      ...(config.duckdb.storage === 'file' ? { path: join(work.work, 'build.duckdb') } : {}),
    });
    try {
      await stage('generate', async () => {
        await createStagingTables(duck);
        await loadRegistryTables(duck, registry);
        const g = await generateScaleUniverse(duck, config.sources.scale!, registry);
        return { rows: g.rows, note: `${g.series.toLocaleString('en-US')} series staged` };
      });
      // The floor (issue 21): on the same staged rows, the least work any builder must do — one pass that
      // decodes, sorts on the grain and writes the observation files with the build's COPY options and parts.
      // Its files are thrown away; every stage is printed as a ratio to it at the end.
      await stage('floor', async () => {
        const floorDir = join(work.work, 'floor');
        await duck.createTable('bench_floor_series', benchSql('bench_floor_series'));
        // The texts are sorted as codes, as the build's write sorts them (sortWithCodes): the floor is the
        // cheapest pass known, not a pass the build beats.
        await createObservationCodes(
          duck,
          stagedObservationTexts('SELECT series_id FROM bench_floor_series'),
        );
        const select = sortWithCodes(
          OBSERVATION_COLUMNS,
          `FROM (${benchSql('bench_floor_observations')}) AS floor`,
          'series_rank, "timestamp", available_at',
          OBSERVATION_CODES,
        );
        let n = 0;
        let files = 0;
        for (const f of FREQUENCIES) {
          const ranges = await keyRanges(
            duck,
            `SELECT k.series_rank AS key, count(*) AS n FROM stg_observations AS o
           JOIN bench_floor_series AS k ON k.series_key = o.series_key WHERE k.frequency = $f GROUP BY k.series_rank`,
            { f },
            MAX_ROWS_PER_FILE,
          );
          for (const [i, [lo, hi]] of ranges.entries()) {
            const file = join(
              floorDir,
              ...partPath(`observations/frequency=${f}/data.parquet`, i, ranges.length).split('/'),
            );
            mkdirSync(join(file, '..'), { recursive: true });
            await duck.writeParquet(select, file, {
              f,
              lo,
              hi,
            });
            files++;
          }
        }
        n = await count(duck, 'stg_observations');
        await duck.run('DROP TABLE bench_floor_series');
        rmSync(floorDir, { recursive: true, force: true });
        return { rows: n, note: `${files} observation files, discarded` };
      });
      await stage('assemble', async () => {
        await assertKnownUnits(duck, registry);
        // Every universe model but tasks (the next stage), in dependency order, as asof build runs them.
        for (const model of UNIVERSE_MODELS.filter((m) => m !== 'tasks')) {
          const t = performance.now();
          await runModels(duck, [model], { eval_start: `${config.eval_start}T00:00:00Z` });
          detail(`${model.padEnd(22)} ${((performance.now() - t) / 1000).toFixed(1).padStart(6)} s`);
        }
        await assertInvariants(duck);
        // The staging copy is not read again: free it before the later stages need the memory.
        await duck.run('DROP TABLE stg_observations');
        observations = await count(duck, 'observations');
        return {
          rows: observations,
          note: `${(await count(duck, 'series')).toLocaleString('en-US')} series`,
        };
      });
      await stage('taxonomy/tasks', async () => {
        await runModels(duck, ['tasks']);
        const targets = Number(
          (await duck.one<{ n: bigint }>('SELECT count(*) AS n FROM series WHERE eval_target')).n,
        );
        return {
          rows: await count(duck, 'tasks'),
          note: `${targets.toLocaleString('en-US')} eval-target series`,
        };
      });
      const buildSegments = (patterns as Record<string, unknown>).buildSegments as
        | ((d: Duck, o?: { log?: (line: string) => void }) => Promise<void>)
        | undefined;
      if (args['skip-patterns'] || !buildSegments) {
        console.log(
          `patterns         skipped (${buildSegments ? '--skip-patterns' : '@asof/patterns has no buildSegments'})`,
        );
      } else {
        await stage('patterns', async () => {
          await buildSegments(duck, { log: detail });
          return { rows: await count(duck, 'segments') };
        });
      }
      await stage('write+manifest', async () => {
        written.push(...(await writeUniverse(duck, outDir)));
        if (!args['skip-patterns'] && buildSegments) {
          written.push(await writeTable(duck, outDir, patterns.SEGMENTS_TABLE_SPEC));
        }
        const outputs: ManifestOutput[] = [];
        for (const w of written) outputs.push(await manifestOutput(outDir, w));
        const totals = await duck.one<Record<string, bigint>>(
          `SELECT (SELECT count(*) FROM series) AS series, (SELECT count(*) FROM observations) AS observations,
              (SELECT sum(n_revisions) FROM series) AS revisions,
              (SELECT count(*) FROM series WHERE eval_target) AS eval_targets, (SELECT count(*) FROM tasks) AS tasks`,
        );
        const manifest = finalizeManifest({
          manifest_version: 1,
          name: config.name,
          kind: 'universe',
          parent_dataset_id: null,
          created_by: {
            asof_version: ASOF_VERSION,
            duckdb_version: await duck.version(),
            git_commit: null,
            git_dirty: null,
          },
          config: config as unknown as Record<string, unknown>,
          config_sha256: sha256Hex(canonicalJson(config)),
          registry: registry.files.map((f) => ({ name: f.name, sha256: f.sha256, bytes: f.bytes })),
          inputs: [],
          outputs,
          warnings: [
            {
              code: 'SYNTHETIC',
              message: 'every series of the scale universe is synthetic (source scale, SPEC §12)',
              count: Number(totals.series),
            },
          ],
          summary: Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, Number(v ?? 0)])),
        });
        writeManifest(join(outDir, 'manifest.json'), manifest);
        datasetId = manifest.dataset_id;
        const bytes = outputs.reduce((s, o) => s + o.bytes, 0);
        return {
          rows: outputs.reduce((s, o) => s + o.rows, 0),
          note: `${outputs.length} files, ${(bytes / 1e6).toFixed(0)} MB`,
        };
      });
    } finally {
      duck.close();
    }
  },
);

const runSplit = (split as Record<string, unknown>).runSplit as typeof split.runSplit | undefined;
if (args['skip-split'] || !runSplit) {
  console.log(`split            skipped (${runSplit ? '--skip-split' : '@asof/split has no runSplit'})`);
} else {
  await stage('split', async () => {
    const r = await runSplit({
      manifestPath: join(outDir, 'manifest.json'),
      outDir: `${outDir}-split`,
      threads: config.duckdb.threads,
      memoryLimit: config.duckdb.memory_limit,
      log: detail,
    });
    const n = r.manifest.outputs.reduce((s, o) => s + o.rows, 0);
    return { rows: n, note: `${r.manifest.outputs.length} files` };
  });
  if (args['skip-baselines']) {
    console.log('baselines        skipped (--skip-baselines)');
  } else {
    // `asof baselines` on the split just made: random walk, drift, seasonal naive, ARIMA and GARCH through
    // the look-ahead guard, model by model and block by block of series, as sorted parts joined into one
    // Parquet file (docs/decisions/0023).
    const threads = args['baseline-threads'] ? Number(args['baseline-threads']) : defaultBaselineThreads();
    let perModel: { seconds: Record<string, number>; series: number } | undefined;
    await stage('baselines', async () => {
      const r = await split.writeBaselineForecasts(
        join(`${outDir}-split`, 'manifest.json'),
        `${outDir}-baselines.parquet`,
        {},
        { log: detail, threads },
      );
      perModel = { seconds: r.seconds, series: r.series };
      return {
        rows: r.rows,
        note: `${r.origins.toLocaleString('en-US')} origins, ${r.series.toLocaleString('en-US')} series, ${r.guard.requests.toLocaleString('en-US')} historyAt requests, ${threads} thread(s)`,
      };
    });
    if (perModel) baselineTimes(perModel.seconds, perModel.series);
  }
}

// The runner (issue 17): a trivial model (the last value, plain JS) over the whole split through asof run's
// protocol; the note has the runner's overhead (wall − waiting for the model). Peak RSS here is the bench
// process's so far: packages/runner/bench/run-default.ts measures the runner alone on the default split.
if (args['skip-split'] || args['skip-run'] || !runSplit) {
  console.log(`run              skipped (${args['skip-run'] ? '--skip-run' : 'no split'})`);
} else {
  await stage('run', async () => {
    const trivial = join(root, 'packages', 'runner', 'bench', 'trivial-model.mjs');
    const forecasts = `${outDir}-run.parquet`;
    const t = performance.now();
    const r = await runner.runModel({
      manifestPath: join(`${outDir}-split`, 'manifest.json'),
      command: `${process.execPath} ${trivial}`,
      name: 'trivial',
      outPath: forecasts,
      cwd: root,
      runner: { name: 'asof-bench', version: ASOF_VERSION },
      log: detail,
    });
    const wall = (performance.now() - t) / 1000;
    rmSync(forecasts, { force: true });
    rmSync(join(dirname(forecasts), '.asof', basename(forecasts)), { recursive: true, force: true });
    return {
      rows: r.record.guard.rows,
      note: `${r.record.pairs.asked.toLocaleString('en-US')} pairs, ${r.record.batches} batches; runner overhead ${(wall - r.record.runtime.model_seconds).toFixed(1)} s (model ${r.record.runtime.model_seconds.toFixed(1)} s)`,
    };
  });
}

// The floor is a measurement, not part of the work: the total leaves it out.
const floor = rows.find((r) => r.stage === 'floor');
const seconds = (performance.now() - started) / 1000 - (floor?.seconds ?? 0);
const totalCpu = process.cpuUsage(startedCpu);
const total: StageRow = {
  stage: 'total',
  seconds,
  cpu_seconds: (totalCpu.user + totalCpu.system) / 1e6 - (floor?.cpu_seconds ?? 0),
  rows: observations,
  rows_per_second: observations / seconds,
  peak_rss_mb: mb(process.resourceUsage().maxRSS),
  rss_mb: Math.round(process.memoryUsage().rss / 1048576),
  note: `observations; dataset_id ${datasetId}`,
};
rows.push(total);
const ratios = floorRatios(rows, floor);
const rRuns = Number(args['r-runs']);
const vsR = rows.some((r) => r.stage === 'baselines') && rRuns > 0 ? arimaVsR(rRuns) : null;
if (args.json) {
  console.log(
    JSON.stringify(
      { scale, dataset_id: datasetId, stages: rows, floor_ratios: ratios, arima_vs_r: vsR },
      null,
      2,
    ),
  );
} else {
  console.log(line(total));
  if (vsR) console.log(vsR.text);
  if (floor) {
    console.log(
      `ratio to the floor (${floor.seconds.toFixed(1)} s wall, ${floor.cpu_seconds.toFixed(1)} s cpu):`,
    );
    for (const r of ratios) {
      console.log(
        `  ${r.stage.padEnd(22)} ${r.wall.toFixed(2).padStart(7)}× wall  ${r.cpu.toFixed(2).padStart(7)}× cpu`,
      );
    }
  }
}

function per1000(s: number, n: number): number {
  return (1000 * s) / Math.max(1, n);
}

/** Each baseline's wall seconds (its pass over the blocks: loading, forecasts, parts) per 1,000 series. */
function baselineTimes(seconds: Record<string, number>, series: number): void {
  for (const [model, s] of Object.entries(seconds)) {
    detail(
      `${model.padEnd(15)} ${s.toFixed(1).padStart(6)} s  ${per1000(s, series).toFixed(2).padStart(7)} s per 1,000 series`,
    );
  }
}

/**
 * asof's autoArima and R's auto.arima per 1,000 series on the ARIMA reference series, one thread each, in
 * this run (issue 56: R/asof ≥ 5). Timed after the stages, so the total leaves it out.
 */
function arimaVsR(runs: number) {
  const t = timeArimaVsR(runs, args.rscript);
  const asof = per1000(median(t.asof), t.series);
  const r = typeof t.r === 'string' ? null : per1000(median(t.r), t.series);
  const text = `ARIMA reference (${t.series} series, one thread, median of ${runs}): asof autoArima ${asof.toFixed(2)} s per 1,000 series, ${
    r === null
      ? `R auto.arima skipped (${t.r})`
      : `R auto.arima ${r.toFixed(2)} s: R/asof ${(r / asof).toFixed(2)}×`
  }`;
  return { series: t.series, asof_per_1000: asof, r_per_1000: r, ratio: r === null ? null : r / asof, text };
}

/**
 * Each stage's wall and CPU seconds over the floor's; then the build (every stage from the staged rows to
 * the written universe, what the floor stands in for) and the total.
 */
function floorRatios(all: StageRow[], f: StageRow | undefined) {
  if (!f || f.seconds <= 0) return [];
  const BUILD = ['assemble', 'taxonomy/tasks', 'patterns', 'write+manifest'];
  const sum = (list: StageRow[], k: 'seconds' | 'cpu_seconds') => list.reduce((a, r) => a + r[k], 0);
  const build = all.filter((r) => BUILD.includes(r.stage));
  const of = (stage: string, wall: number, cpu: number) => ({
    stage,
    wall: wall / f.seconds,
    cpu: f.cpu_seconds > 0 ? cpu / f.cpu_seconds : Number.NaN,
  });
  return [
    ...all.filter((r) => r !== f && r.stage !== 'total').map((r) => of(r.stage, r.seconds, r.cpu_seconds)),
    of('build (assemble→write)', sum(build, 'seconds'), sum(build, 'cpu_seconds')),
    of('total', total.seconds, total.cpu_seconds),
  ];
}
if (!args.keep) {
  // Each output is a link and its store (docs/decisions/0010).
  for (const dir of [outDir, `${outDir}-split`]) {
    rmSync(dir, { force: true });
    rmSync(join(dirname(dir), '.asof', basename(dir)), { recursive: true, force: true });
  }
  rmSync(`${outDir}-baselines.parquet`, { force: true });
}
