import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { vendorRestatementWarnings } from '@asof/diff';
import { BIGINT, BOOLEAN, Duck, listValue, VARCHAR } from '@asof/duck';
import { manifestOutput, openVerifiedManifest, type VerifiedManifest, writeManifest } from '@asof/manifest';
import { faultPoint, makeSpillDir, type OutputWork, writeOutputDir } from '@asof/output';
import { SEGMENTS_TABLE_SPEC } from '@asof/patterns';
import {
  AsofError,
  type BuildWarning,
  elapsedStamp,
  FREQUENCIES,
  InputError,
  type Manifest,
  type ManifestOutput,
  type RawInput,
  zodInputError,
} from '@asof/schema';
import { MEMBERSHIP_INPUT, type PriceQualitySummaryRow } from '@asof/source-prices';
import { defaultRegistry, type Registry } from '@asof/taxonomy';
import {
  assertInvariants,
  assertKnownUnits,
  createStagingTables,
  evalStartAfterDataWarning,
  loadRegistryTables,
  membershipWarnings,
  OBSERVATION_MODELS,
  runModels,
  StageSink,
  shortEvalSeriesWarning,
  UNIVERSE_MODELS,
  writeTable,
  writeUniverse,
} from '@asof/transform';
import { ASOF_VERSION, buildUniverse, pipelineInputs, universeManifest } from './build-universe.ts';
import { keptAccounting } from './ingest-accounting.ts';
import { PipelineConfig } from './pipeline-config.ts';
import { pipelineFileToRecord } from './recorded-pipeline-file.ts';
import { type RunSourcesReport, runSources } from './run-sources.ts';
import { type EdgarCompanyPlan, ingestEdgarCompanies, planEdgarCompanies } from './update-edgar-companies.ts';
import { updateModelSql } from './update-models.ts';
import { planIsNoop, planUpdate, type SourcePlan, type UpdatePlan } from './update-plan.ts';
import { type AppendedEntity, appendPriceDownloads } from './update-price-append.ts';
import { type PriceEntity, type PriceEntityPlan, planPriceEntities } from './update-price-entities.ts';
import { updateSegments } from './update-segments.ts';

export interface UpdateOptions {
  /** OLD's manifest.json. */
  oldManifest: string;
  /** The pipeline to update with (default: OLD's, its relative paths against `cwd`). */
  config?: PipelineConfig;
  /** The pipeline file (absolute), given or found from OLD's created_by.pipeline_file; recorded in the new manifest. */
  pipelineFile?: string;
  /** What `cwd` is, for messages (`the folder of t1/pipeline.json`, `the working directory`). */
  pathsFrom?: string;
  outDir: string;
  cwd?: string;
  cacheRoot?: string;
  /** Paths read besides the sources (the pipeline file). */
  inputs?: string[];
  /** Serve every live source from the response cache (sets `offline` on each live block). */
  offline?: boolean;
  registry?: Registry;
  log?: (line: string) => void;
}

/** What the update did with each part of the universe, for the command's report. */
export interface UpdateStep {
  part: string;
  action: 'reused' | 'appended' | 'read again' | 'removed';
  detail?: string;
}

export interface UpdateResult {
  status: 'updated' | 'rebuilt' | 'up-to-date';
  /** Why a full build ran, or what made the update a no-op. */
  reason: string | null;
  manifest: Manifest;
  manifestPath: string;
  parentDatasetId: string;
  steps: UpdateStep[];
  /** Observation partitions linked from OLD (same bytes), by path. */
  linked: string[];
  seconds: number;
}

/** An update that cannot reuse OLD as planned (an unforeseen overlap): it runs a full build instead. */
class ReuseRefused extends AsofError {
  constructor(message: string) {
    super('UPDATE_REUSE_REFUSED', message);
  }
}

/** Sets `offline` on every live block: nothing is fetched, the response cache answers. */
function offlineConfig(config: PipelineConfig): PipelineConfig {
  const s = structuredClone(config.sources) as Record<string, Record<string, unknown> | undefined>;
  for (const k of ['edgar', 'fred', 'prices']) {
    const b = s[k];
    if (b && (b.tickers || b.series || b.catalog || b.symbols)) b.offline = true;
  }
  return { ...config, sources: s as PipelineConfig['sources'] };
}

/**
 * `asof update`: a universe over OLD's inputs plus what is new, written as a new output whose Parquet files
 * and manifest (apart from parent_dataset_id) are byte-identical to `asof build` over the same inputs
 * (docs/decisions/0022-incremental-update.md). Raw folders whose files are OLD's are taken from OLD;
 * a prices folder is decided per instrument (reused, new downloads appended, or read again); everything
 * else is run again. Nothing new: nothing is written (status 'up-to-date').
 */
export async function updateUniverse(options: UpdateOptions): Promise<UpdateResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const step = (what: string) => log(`${elapsedStamp()} ${what}`);
  const cwd = options.cwd ?? process.cwd();
  const registry = options.registry ?? defaultRegistry();
  const old = await openVerifiedManifest(options.oldManifest);
  try {
    if (old.manifest.kind !== 'universe') {
      throw new InputError(
        'NOT_A_UNIVERSE',
        `${options.oldManifest}: manifest kind is '${old.manifest.kind}'; asof update takes a universe built with 'asof build' or 'asof update'`,
        { context: { file: options.oldManifest, value: old.manifest.kind } },
      );
    }
    let config = options.config ?? parseOldConfig(old);
    if (options.offline) config = offlineConfig(config);
    const duckdbVersion = await currentDuckdbVersion();
    const plan = planUpdate(old.manifest, config, {
      cwd,
      pathsFrom: options.pathsFrom,
      registry,
      asofVersion: ASOF_VERSION,
      duckdbVersion,
    });
    const parent = old.manifest.dataset_id;
    const seconds = () => (performance.now() - started) / 1000;
    if (planIsNoop(plan)) {
      await old.recheck();
      return {
        status: 'up-to-date',
        reason: `nothing new since ${parent.slice(0, 12)}: every raw input is the one it was built from`,
        manifest: old.manifest,
        manifestPath: old.path,
        parentDatasetId: parent,
        steps: plan.sources.map((s) => ({ part: s.source, action: 'reused' })),
        linked: [],
        seconds: seconds(),
      };
    }
    const full = async (reason: string): Promise<UpdateResult> => {
      step(`full build: ${reason}`);
      const r = await buildUniverse({
        config,
        outDir: options.outDir,
        cwd,
        cacheRoot: options.cacheRoot,
        inputs: [...(options.inputs ?? []), old.dir],
        registry,
        log,
        parentDatasetId: parent,
        pipelineFile: options.pipelineFile,
      });
      return {
        status: 'rebuilt',
        reason,
        manifest: r.manifest,
        manifestPath: r.manifestPath,
        parentDatasetId: parent,
        steps: [{ part: 'all sources', action: 'read again', detail: reason }],
        linked: [],
        seconds: seconds(),
      };
    };
    if (plan.fullRebuild !== null) return await full(plan.fullRebuild);
    const ctx = {
      config,
      registry,
      cwd,
      cacheRoot: options.cacheRoot,
      plan,
      old,
      step,
      pipelineFile:
        options.pipelineFile === undefined
          ? undefined
          : pipelineFileToRecord(options.pipelineFile, options.outDir),
    };
    try {
      const { value, path } = await writeOutputDir(
        options.outDir,
        {
          command: 'asof update',
          writes: 'universe',
          cwd,
          inputs: [
            ...(options.inputs ?? []),
            ...pipelineInputs(config, cwd, options.cacheRoot ?? cwd),
            old.dir,
          ],
          label: (v: { manifest: Manifest }) => v.manifest.dataset_id.slice(0, 12),
          // OLD's files were read (and linked) through the descriptors hashed at the start: refuse to publish
          // if one of them was written to in place meanwhile.
          beforeSwitch: () => old.recheck(),
        },
        (work) => updateInto(work, ctx),
      );
      step(`done: ${join(path, 'manifest.json')}`);
      return {
        status: 'updated',
        reason: null,
        manifest: value.manifest,
        manifestPath: join(path, 'manifest.json'),
        parentDatasetId: parent,
        steps: value.steps,
        linked: value.linked,
        seconds: seconds(),
      };
    } catch (err) {
      if (err instanceof ReuseRefused) return await full(err.message);
      throw err;
    }
  } finally {
    old.close();
  }
}

function parseOldConfig(old: VerifiedManifest): PipelineConfig {
  const parsed = PipelineConfig.safeParse(old.manifest.config);
  if (!parsed.success) {
    throw zodInputError('UPDATE_NEEDS_PIPELINE', old.label, parsed.error, {
      what: 'pipeline config any more',
      hint: `pass the pipeline file: asof update --manifest ${old.label} pipeline.json --out DIR`,
    });
  }
  return parsed.data;
}

async function currentDuckdbVersion(): Promise<string> {
  const duck = await Duck.open({ threads: 1 });
  try {
    return await duck.version();
  } finally {
    duck.close();
  }
}

interface UpdateContext {
  config: PipelineConfig;
  registry: Registry;
  cwd: string;
  cacheRoot?: string;
  plan: UpdatePlan;
  old: VerifiedManifest;
  step: (what: string) => void;
  /** created_by.pipeline_file of the new universe (pipelineFileToRecord of the pipeline file). */
  pipelineFile?: string;
}

/** How each source of the plan is carried out, once the price instruments are decided. */
interface Decisions {
  reuseSources: string[];
  /** EDGAR decided per company (its folder changed): the plan, and the folder. */
  edgar: { plan: EdgarCompanyPlan; dir: string } | null;
  rerun: SourcePlan[];
  prices: PriceEntityPlan | null;
  appended: AppendedEntity[];
  reread: PriceEntity[];
  steps: UpdateStep[];
}

async function updateInto(
  work: OutputWork,
  ctx: UpdateContext,
): Promise<{ manifest: Manifest; steps: UpdateStep[]; linked: string[] }> {
  const { config, registry, old, step } = ctx;
  let spill = join(work.work, 'spill');
  if (config.duckdb.temp_directory) {
    // Named and marked as asof's and registered first: a kill leaves nothing the next command cannot remove.
    spill = makeSpillDir(resolve(ctx.cwd, config.duckdb.temp_directory), work.track);
  }
  const duck = await Duck.open({
    threads: config.duckdb.threads,
    memoryLimit: config.duckdb.memory_limit,
    memoryLimitSource: { field: 'duckdb.memory_limit' },
    tempDirectory: spill,
    ...(config.duckdb.storage === 'file' ? { path: join(work.work, 'build.duckdb') } : {}),
  });
  try {
    await createStagingTables(duck);
    await loadRegistryTables(duck, registry);
    const d = await decide(duck, ctx);
    step(`plan: ${d.steps.map((s) => `${s.part} ${s.action}`).join(', ')}`);
    const sink = await StageSink.create(duck);
    const rerunSources: Record<string, unknown> = {};
    for (const s of d.rerun) rerunSources[s.source] = (config.sources as Record<string, unknown>)[s.source];
    // The sources' log names the user's raw folder, never the temp folder the re-read files are linked into.
    let sourceLog = step;
    if (d.reread.length > 0) {
      // The index membership files are OLD's (the prices source's planUpdate compares them): their rows are carried over.
      const { membership: _carried, ...prices } = config.sources.prices!;
      const linked = linkRereadFiles(work.work, ctx, d.reread);
      rerunSources.prices = { ...prices, raw_dir: linked };
      const users = `${config.sources.prices!.raw_dir} (the files read again)`;
      sourceLog = (line) => step(line.split(linked).join(users));
    }
    const report: RunSourcesReport =
      Object.keys(rerunSources).length === 0
        ? { priceQuality: [], skipped: [], generatedRows: 0 }
        : await runSources({ ...config, sources: rerunSources as PipelineConfig['sources'] }, sink, {
            cwd: ctx.cwd,
            cacheRoot: ctx.cacheRoot,
            log: sourceLog,
            duck,
            registry,
            allowEmpty: true,
          });
    if (d.edgar !== null) {
      const s = ingestEdgarCompanies(d.edgar.dir, d.edgar.plan, sink);
      for (const k of s?.skipped ?? [])
        report.skipped.push({ source: 'edgar', id: k.cik, reason: `${k.entity_name}: ${k.reason}` });
    }
    for (const a of d.appended) {
      for (const r of a.restage) sink.addObservation(r);
      for (const r of a.rows) sink.addObservation(r);
      for (const c of a.actions) sink.addCorporateAction(c);
      for (const m of a.membership) sink.addMembership(m);
      for (const w of a.warnings) sink.addWarning(w);
      for (const i of a.inputs) sink.addInput(i);
      for (const x of a.accounting) sink.addAccounting(x);
    }
    sink.close();
    for (const k of report.skipped) {
      sink.addWarning({
        code: 'SOURCE_SKIPPED',
        message: `${k.source} ${k.id} skipped: ${k.reason}`,
        count: 1,
      });
    }
    step(`staged ${sink.observationCount.toLocaleString('en-US')} new or re-read observation rows`);
    await faultPoint('run:midway');
    await stageReused(duck, old, d);
    step('carried over OLD declarations and corporate actions');
    const kept = keptInputs(old.manifest, d);
    const inputs = [...sink.inputs, ...kept];
    const accounting = [...sink.accounting, ...keptAccounting(old.manifest, kept)];
    const warnings: BuildWarning[] = [...sink.warnings, ...keptWarnings(old.manifest, d)];
    const priceQuality = mergedPriceQuality(old.manifest, d, report.priceQuality as PriceQualitySummaryRow[]);
    await assertKnownUnits(duck, registry);
    // OLD's rows of carried-over series join the staged rows, and the observation models run over all of
    // them as in a build.
    await stageReusedRows(duck, old);
    step("OLD's rows of carried-over series staged");
    await runModels(duck, OBSERVATION_MODELS);
    step('observations assembled from OLD and the staged rows');
    await runModels(
      duck,
      UNIVERSE_MODELS.filter((m) => !(OBSERVATION_MODELS as readonly string[]).includes(m)),
      { eval_start: `${config.eval_start}T00:00:00Z` },
    );
    step('models built');
    await assertInvariants(duck);
    const short = await shortEvalSeriesWarning(duck, config.eval_start);
    if (short !== null) warnings.push(short);
    const late = await evalStartAfterDataWarning(duck, config.eval_start);
    if (late !== null) warnings.push(late);
    warnings.push(...(await membershipWarnings(duck, warnings)));
    warnings.push(...(await vendorRestatementWarnings(duck, inputs)));
    step('models built, invariants hold');
    const seg = await updateSegments(duck, {
      oldSegments: old.readPaths('segments'),
      oldObservations: old.readPaths('observations'),
      oldSpans: oldSpansFile(old),
      work: work.work,
      config,
      log: step,
    });
    // A count a user can read; the positions themselves are internal (they were a JSON dump, audit 9.1).
    const groups = Object.keys(seg.recomputed);
    step(
      groups.length === 0
        ? "segments: every one is OLD's"
        : `segments recomputed where new rows fall, in ${groups.length} (frequency, detail category) group(s): ${groups.slice(0, 3).join(', ')}${groups.length > 3 ? ', …' : ''}`,
    );
    const changed = await changedPartitions(duck);
    const written = [
      ...(await writeUniverse(duck, work.dir, { partitions: (f) => changed.has(f) })),
      await writeTable(duck, work.dir, SEGMENTS_TABLE_SPEC),
    ];
    const linked = linkPartitions(old, work.dir, changed);
    const fresh = new Map<string, ManifestOutput>();
    for (const w of written) fresh.set(w.path, await manifestOutput(work.dir, w));
    const outputs = orderOutputs(fresh, linked);
    step(`wrote ${written.length} Parquet files, linked ${linked.length} from OLD`);
    const manifest = await universeManifest(duck, {
      config,
      registry,
      inputs,
      outputs,
      warnings,
      accounting,
      priceQuality,
      parentDatasetId: old.manifest.dataset_id,
      pipelineFile: ctx.pipelineFile,
    });
    writeManifest(join(work.dir, 'manifest.json'), manifest);
    return { manifest, steps: d.steps, linked: linked.map((o) => o.path) };
  } finally {
    duck.close();
  }
}

/** Per source (and per price instrument) what the update reuses, appends to or reads again. */
async function decide(duck: Duck, ctx: UpdateContext): Promise<Decisions> {
  const d: Decisions = {
    reuseSources: [],
    edgar: null,
    rerun: [],
    prices: null,
    appended: [],
    reread: [],
    steps: [],
  };
  for (const s of ctx.plan.sources) {
    if (s.action === 'reuse') {
      d.reuseSources.push(s.source);
      d.steps.push({ part: s.source, action: 'reused' });
    } else if (s.action === 'rerun') {
      d.rerun.push(s);
      d.steps.push({ part: s.source, action: 'read again', detail: s.reason });
    } else if (s.source === 'edgar') {
      const dir = resolve(ctx.cwd, ctx.config.sources.edgar!.raw_dir!);
      const companies = planEdgarCompanies(ctx.old.manifest, ctx.plan.raw.edgar!);
      if (companies === null) {
        d.rerun.push({
          source: 'edgar',
          action: 'rerun',
          reason: 'its files or warnings are not per company',
        });
        d.steps.push({ part: 'edgar', action: 'read again', detail: 'files or warnings not per company' });
      } else {
        d.edgar = { plan: companies, dir };
        const n = (list: string[]) => `${list.length} compan${list.length === 1 ? 'y' : 'ies'}`;
        if (companies.reuse.length)
          d.steps.push({ part: 'edgar', action: 'reused', detail: n(companies.reuse) });
        if (companies.reread.length)
          d.steps.push({
            part: 'edgar',
            action: 'read again',
            detail: `${n(companies.reread)}: ${companies.reread.join(', ')}`,
          });
        if (companies.removed.length)
          d.steps.push({
            part: 'edgar',
            action: 'removed',
            detail: `${n(companies.removed)}: ${companies.removed.join(', ')}`,
          });
      }
    } else {
      const dir = resolve(ctx.cwd, ctx.config.sources.prices!.raw_dir!);
      const entities = planPriceEntities(ctx.old.manifest, ctx.plan.raw.prices!, (name) =>
        readFileSync(join(dir, name), 'utf8'),
      );
      if (entities === null) {
        d.rerun.push({
          source: 'prices',
          action: 'rerun',
          reason: 'its files or warnings are not per instrument',
        });
        d.steps.push({
          part: 'prices',
          action: 'read again',
          detail: 'files or warnings not per instrument',
        });
        continue;
      }
      d.prices = entities;
      const candidates = entities.entities.filter((e) => e.action === 'append');
      const outcomes = await appendPriceDownloads(candidates, {
        duck,
        rawDir: dir,
        old: {
          series: ctx.old.readPaths('series')[0],
          observations: ctx.old.readPaths('observations'),
          corporateActions: ctx.old.readPaths('corporate_actions'),
          membership: oldMembershipFile(ctx.old),
        },
        totalReturn: ctx.config.sources.prices!.total_return,
        vendorLagMicros: ctx.config.sources.prices!.vendor_lag_seconds * 1_000_000,
      });
      const declined = new Map<string, string>();
      for (const o of outcomes) {
        if (o.ok) d.appended.push(o.entity);
        else declined.set(o.symbol, o.declined);
      }
      for (const e of entities.entities) {
        if (e.action === 'reuse') d.steps.push({ part: `prices ${e.symbol}`, action: 'reused' });
        else if (e.action === 'removed') d.steps.push({ part: `prices ${e.symbol}`, action: 'removed' });
        else if (e.action === 'append' && !declined.has(e.symbol))
          d.steps.push({
            part: `prices ${e.symbol}`,
            action: 'appended',
            detail: e.added.map((f) => f.name).join(', '),
          });
        else {
          d.reread.push(e);
          d.steps.push({
            part: `prices ${e.symbol}`,
            action: 'read again',
            detail: declined.get(e.symbol) ?? 'its files changed',
          });
        }
      }
    }
  }
  return d;
}

/** OLD's membership.parquet (universes built before membership existed have none: they are rebuilt). */
function oldMembershipFile(old: VerifiedManifest): string {
  const [file] = old.readPaths('membership');
  if (file === undefined) throw new ReuseRefused('OLD has no membership table');
  return file;
}

function oldSpansFile(old: VerifiedManifest): string {
  const [file] = old.readPaths('member_spans');
  if (file === undefined) throw new ReuseRefused('OLD has no member_spans table');
  return file;
}

/** The files of instruments read again, linked into a folder of their own for the prices reader. */
function linkRereadFiles(work: string, ctx: UpdateContext, entities: PriceEntity[]): string {
  const from = resolve(ctx.cwd, ctx.config.sources.prices!.raw_dir!);
  const dir = join(work, 'prices-reread');
  mkdirSync(dir, { recursive: true });
  for (const e of entities) {
    for (const f of e.files) {
      symlinkSync(join(from, f.name), join(dir, f.name));
      if (f.sidecar !== null && !existsSync(join(dir, f.sidecar.name)))
        symlinkSync(join(from, f.sidecar.name), join(dir, f.sidecar.name));
    }
  }
  return dir;
}

/** Symbols whose OLD series, rows (before their cuts), actions, warnings and inputs are kept. */
function keptSymbols(d: Decisions): Set<string> {
  const out = new Set<string>(d.appended.map((a) => a.symbol));
  for (const e of d.prices?.entities ?? []) if (e.action === 'reuse') out.add(e.symbol);
  return out;
}

/** Declares OLD's carried-over series and corporate actions in the staging tables. */
async function stageReused(duck: Duck, old: VerifiedManifest, d: Decisions): Promise<void> {
  await duck.run(`CREATE TABLE old_series AS SELECT * FROM read_parquet($file)`, {
    file: old.readPaths('series')[0],
  });
  await duck.run('CREATE TABLE reuse_sources (source VARCHAR)');
  await duck.appendColumns('reuse_sources', [VARCHAR], [d.reuseSources]);
  await duck.run('CREATE TABLE reuse_symbols (symbol VARCHAR)');
  await duck.appendColumns('reuse_symbols', [VARCHAR], [[...keptSymbols(d)]]);
  await duck.run('CREATE TABLE reuse_ciks (cik VARCHAR)');
  await duck.appendColumns('reuse_ciks', [VARCHAR], [d.edgar?.plan.reuse ?? []]);
  await duck.run('CREATE TABLE reuse_cuts (series_id VARCHAR, cut_us BIGINT)');
  const cuts = d.appended.flatMap((a) => [...a.cuts]);
  await duck.appendColumns(
    'reuse_cuts',
    [VARCHAR, BIGINT],
    [cuts.map((c) => c[0]), cuts.map((c) => BigInt(Number.isFinite(c[1]) ? c[1] : Number.MAX_SAFE_INTEGER))],
  );
  await duck.createTable('update_reused_series', updateModelSql('update_reused_series'));
  // Per series of an appended instrument, the first timestamp its new downloads added a row at.
  const first = new Map<string, number>();
  for (const a of d.appended)
    for (const r of a.rows)
      first.set(r.series_id, Math.min(first.get(r.series_id) ?? r.timestamp, r.timestamp));
  await duck.run('CREATE TABLE append_changes (series_id VARCHAR, first_changed_us BIGINT)');
  await duck.appendColumns(
    'append_changes',
    [VARCHAR, BIGINT],
    [[...first.keys()], [...first.values()].map((v) => BigInt(v))],
  );
  const declared = await duck.one<{ n: bigint }>(
    'SELECT count(*) AS n FROM stg_series WHERE series_id IN (SELECT series_id FROM update_reused_series)',
  );
  if (Number(declared.n) > 0)
    throw new ReuseRefused('a source read again declares a series OLD also had from a reused source');
  await duck.run(
    `INSERT INTO stg_series
     SELECT series_id, source, source_key, title, unit, frequency, scope, category, detail_category, entity_id,
            entity_name, currency, seasonal_adjustment, fiscal_year_end, is_synthetic, universe_kind, -1
     FROM old_series WHERE series_id IN (SELECT series_id FROM update_reused_series)`,
  );
  await duck.run(
    `INSERT INTO stg_corporate_actions
     SELECT entity_id, strftime(ex_date, '%Y-%m-%d'), kind, value, epoch_us(available_at), source_ref, -1
     FROM read_parquet($files)
     WHERE entity_id IN (SELECT entity_id FROM update_reused_series WHERE entity_id IS NOT NULL)`,
    { files: listValue(old.readPaths('corporate_actions')) },
  );
  const clash = await duck.one<{ n: bigint }>(
    `SELECT count(*) AS n FROM (SELECT entity_id FROM stg_corporate_actions GROUP BY entity_id, ex_date, kind
       HAVING count(*) > 1 AND min(stage_seq) < 0)`,
  );
  if (Number(clash.n) > 0)
    throw new ReuseRefused(
      'a corporate action OLD had is also staged again (which the build would keep depends on its order)',
    );
  await stageReusedMembership(duck, old, d);
}

/**
 * OLD's membership rows of what is carried over (membership.parquet holds each grain's winner, which is
 * all the models read): price_bars of reused instruments, edgar_submissions of reused companies, and the
 * index membership files' rows unless the prices source is read again in full. Appended instruments'
 * spans are staged by the append path; everything read again stages its own.
 */
async function stageReusedMembership(duck: Duck, old: VerifiedManifest, d: Decisions): Promise<void> {
  const symbols = new Set<string>();
  for (const e of d.prices?.entities ?? []) if (e.action === 'reuse') symbols.add(e.symbol);
  const appended = d.appended.map((a) => a.symbol);
  await duck.run('CREATE TABLE reuse_price_symbols (symbol VARCHAR, appended BOOLEAN)');
  await duck.appendColumns(
    'reuse_price_symbols',
    [VARCHAR, BOOLEAN],
    [[...symbols, ...appended], [...symbols, ...appended].map((_, i) => i >= symbols.size)],
  );
  const params = {
    file: oldMembershipFile(old),
    all_prices: d.reuseSources.includes('prices'),
    all_edgar: d.reuseSources.includes('edgar'),
    index_files: d.reuseSources.includes('prices') || d.prices !== null,
  };
  // A price entity whose rows come from OLD must be no other instrument's, read again or appended: the build
  // would pick among their rows by staging order.
  const shared = await duck.all<{ entity_id: string }>(updateModelSql('update_shared_price_entities'));
  if (shared.length > 0)
    throw new ReuseRefused(`price instruments share entity ${shared[0].entity_id} and not all are reused`);
  await duck.run(`INSERT INTO stg_membership ${updateModelSql('update_reused_membership')}`, params);
  const clash = await duck.one<{ n: bigint }>(
    `SELECT count(*) AS n FROM (SELECT entity_id FROM stg_membership
       GROUP BY entity_id, universe, source, from_us, available_at_us HAVING count(*) > 1 AND min(stage_seq) < 0)`,
  );
  if (Number(clash.n) > 0)
    throw new ReuseRefused('a membership row OLD had is also staged again (the build keeps one by order)');
}

/** OLD's inputs of the parts carried over. */
function keptInputs(old: Manifest, d: Decisions): RawInput[] {
  const keys = new Set<string>();
  const symbols = keptSymbols(d);
  for (const e of d.prices?.entities ?? []) {
    if (!symbols.has(e.symbol)) continue;
    const added = new Set(e.added.map((f) => f.name));
    for (const f of e.files) {
      if (added.has(f.name)) continue;
      keys.add(f.name);
      if (f.sidecar !== null) keys.add(f.sidecar.name);
    }
  }
  const ciks = new Set(d.edgar?.plan.reuse ?? []);
  // company_tickers.json is listed by the run that reads companies again; with none read, OLD's stays.
  const tickers = d.edgar !== null && d.edgar.plan.reread.length === 0 ? d.edgar.plan.tickers : null;
  const edgarKept = (key: string) => {
    const cik = /CIK(\d{10})/i.exec(key)?.[1];
    return (cik !== undefined && ciks.has(cik)) || key === tickers;
  };
  return old.inputs.filter(
    (i) =>
      (d.reuseSources.includes('edgar') && i.source === 'edgar') ||
      (d.edgar !== null && i.source === 'edgar' && edgarKept(i.key)) ||
      (d.reuseSources.includes('fred') && i.source === 'fred') ||
      (d.reuseSources.includes('prices') && i.source.startsWith('prices:')) ||
      (d.prices !== null && i.source === MEMBERSHIP_INPUT) ||
      (i.source.startsWith('prices:') && i.source !== MEMBERSHIP_INPUT && keys.has(i.key)),
  );
}

/** OLD's warnings of the parts carried over (their codes and messages name the source and instrument). */
function keptWarnings(old: Manifest, d: Decisions): BuildWarning[] {
  const out: BuildWarning[] = [];
  const prefixes: Record<string, [string, string]> = {
    edgar: ['EDGAR_', 'edgar '],
    fred: ['FRED_', 'fred '],
    prices: ['PRICES_', 'prices '],
  };
  for (const s of d.reuseSources) {
    const [code, skipped] = prefixes[s];
    for (const w of old.warnings)
      if (w.code.startsWith(code) || (w.code === 'SOURCE_SKIPPED' && w.message.startsWith(skipped)))
        out.push(w);
  }
  for (const symbol of keptSymbols(d)) out.push(...(d.prices?.oldWarnings.get(symbol) ?? []));
  for (const cik of d.edgar?.plan.reuse ?? []) out.push(...(d.edgar?.plan.oldWarnings.get(cik) ?? []));
  return out;
}

/** The manifest's price-quality rows in the order the prices reader lists instruments (symbol, then family). */
function mergedPriceQuality(
  old: Manifest,
  d: Decisions,
  fresh: PriceQualitySummaryRow[],
): PriceQualitySummaryRow[] {
  const oldRows = ((old.summary as { price_quality?: PriceQualitySummaryRow[] }).price_quality ?? []).slice();
  if (d.reuseSources.includes('prices')) return oldRows;
  if (d.prices === null) return fresh;
  const rows: PriceQualitySummaryRow[] = [...fresh];
  const appended = new Map(d.appended.map((a) => [a.symbol, a]));
  for (const e of d.prices.entities) {
    if (e.action === 'reuse') rows.push(...(d.prices.oldQuality.get(e.symbol) ?? []));
    const a = appended.get(e.symbol);
    if (a) rows.push(...(d.prices.oldQuality.get(e.symbol) ?? []), ...a.quality);
  }
  const key = (r: PriceQualitySummaryRow) => `${r.symbol}\u0000${r.family === 'pxadj' ? 'vadj' : 'raw'}`;
  // Stable: within an instrument the rows stay in download order.
  return rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => (key(a.r) < key(b.r) ? -1 : key(a.r) > key(b.r) ? 1 : a.i - b.i))
    .map((x) => x.r);
}

/**
 * Stages OLD's rows of the carried-over series (before each series' cut) beside what the update staged, with
 * the keys they need and their series' single-vintage counts, so the observation models of @asof/transform
 * run over the whole universe as in a build. update_staged_series is taken first: what the update staged.
 */
async function stageReusedRows(duck: Duck, old: VerifiedManifest): Promise<void> {
  const files = listValue(old.readPaths('observations'));
  await duck.createTable('update_staged_series', updateModelSql('update_staged_series'));
  await duck.createTable('update_reused_keys', updateModelSql('update_reused_keys'), { old_files: files });
  await duck.run('INSERT INTO stg_keys SELECT kind, key, text FROM update_reused_keys');
  await duck.createTable('update_reused_rows', updateModelSql('update_reused_rows'), { old_files: files });
  await duck.run(
    `INSERT INTO stg_observations
     SELECT series_key, ts_us, available_at_us, value, basis_key, ref_key, stage_seq FROM update_reused_rows`,
  );
  await duck.run(
    `INSERT INTO stg_observation_periods
     SELECT series_key, stage_seq, period_start_us FROM update_reused_rows WHERE period_start_us IS NOT NULL`,
  );
  await duck.createTable('update_reused_single_vintage', updateModelSql('update_reused_single_vintage'));
  await duck.run(
    'DELETE FROM stg_single_vintage WHERE series_key IN (SELECT series_key FROM update_reused_single_vintage)',
  );
  await duck.run('INSERT INTO stg_single_vintage SELECT series_key, rows FROM update_reused_single_vintage');
  await duck.run('DROP TABLE update_reused_rows');
}

/** Frequencies whose observation partition differs from OLD's: new rows, or OLD series not carried over. */
async function changedPartitions(duck: Duck): Promise<Set<string>> {
  const rows = await duck.all<{ frequency: string }>(
    `SELECT DISTINCT frequency FROM update_staged_series WHERE frequency IS NOT NULL
     UNION SELECT DISTINCT frequency FROM old_series
       WHERE series_id NOT IN (SELECT series_id FROM update_reused_series) AND n_obs + n_revisions > 0`,
  );
  return new Set(rows.map((r) => r.frequency));
}

/**
 * OLD's files of the partitions that did not change, hard-linked into the new output (or copied from the
 * descriptor that was hashed when the link would reach another file, or across file systems).
 */
function linkPartitions(old: VerifiedManifest, dir: string, changed: Set<string>): ManifestOutput[] {
  const out: ManifestOutput[] = [];
  for (const f of old.files('observations')) {
    const frequency = /frequency=([A-Z]+)\//.exec(f.output.path)?.[1];
    if (frequency === undefined || changed.has(frequency)) continue;
    const target = join(dir, ...f.output.path.split('/'));
    mkdirSync(dirname(target), { recursive: true });
    let linked = false;
    try {
      linkSync(f.path, target);
      const a = statSync(target);
      const b = statSync(f.readPath);
      linked = a.ino === b.ino && a.dev === b.dev;
    } catch {
      linked = false;
    }
    if (!linked) {
      // Never copy onto a link: that would write into the inode the link shares.
      rmSync(target, { force: true });
      copyFileSync(f.readPath, target);
    }
    out.push(f.output);
  }
  return out;
}

/** The tables after the observation partitions, in the order buildInto writes them (writeUniverse, then segments). */
const TABLE_ORDER = ['series', 'tasks', 'corporate_actions', 'membership', 'member_spans', 'segments'];

/** Outputs in the build's order: partitions by frequency (parts in order), then the other tables. */
function orderOutputs(fresh: Map<string, ManifestOutput>, linked: ManifestOutput[]): ManifestOutput[] {
  const all = [...linked, ...fresh.values()];
  const rank = (o: ManifestOutput) => {
    const f = /^observations\/frequency=([A-Z]+)\//.exec(o.path)?.[1];
    if (f !== undefined) return FREQUENCIES.indexOf(f as never);
    return FREQUENCIES.length + TABLE_ORDER.indexOf(o.table);
  };
  return all.sort((a, b) => rank(a) - rank(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
