import { realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Duck, listValue } from '@asof/duck';
import {
  finalizeDerivedManifest,
  manifestOutput,
  openVerifiedManifest,
  parentInputs,
  readManifest,
  type VerifiedManifest,
  writeDerivedDir,
  writeManifest,
} from '@asof/manifest';
import { InputError, type Manifest, type ManifestOutput } from '@asof/schema';
import { buildCroissant } from './build-croissant.ts';
import { checkRedistribution } from './check-redistribution.ts';
import { describeSourceTerms, licenseOf } from './describe-source-terms.ts';
import { nextPublishVersion } from './next-publish-version.ts';
import { planPublishConfigs, SOURCE_TABLES } from './plan-publish-configs.ts';
import type { PublishedConfig, PublishedDataset, PublishedWindows } from './published-dataset.ts';
import { renderDatasetCard } from './render-dataset-card.ts';
import { renderFevTasks } from './render-fev-tasks.ts';
import { shardPath, type WrittenFile, writePublishedConfig } from './write-published-config.ts';

export interface PublishOptions {
  manifestPath: string;
  outDir: string;
  /** Also write a CSV beside each Parquet file. */
  csv?: boolean;
  /** A folder for the user's own use: inputs marked test-only are accepted (docs/decisions/0066). */
  private?: boolean;
  /** For a split: the universe it was made from, whose inputs' terms are checked. */
  universePath?: string;
  /** croissant.json's url and the fev tasks' dataset_path (default: a Hub URL of the dataset's name). */
  url?: string;
  creator?: string;
  /** croissant.json's datePublished (default: today, UTC). */
  date?: string;
  createdBy?: { asof_version: string; git_commit: string | null; git_dirty: boolean | null };
  log?: (line: string) => void;
}

export interface PublishResult {
  manifest: Manifest;
  manifestPath: string;
  version: string;
}

/**
 * `asof publish`: a universe or a split as a Hugging Face dataset folder (docs/decisions/0066): Parquet per
 * config under data/<config>/train-00000.parquet (CSV beside it with `csv`), README.md (the dataset card),
 * croissant.json (Croissant 1.1), tasks.yaml (fev, a split only) and a manifest of kind 'publish' naming
 * the parent's dataset_id. The parent is verified first and read only through the files it lists.
 */
export async function publishDataset(options: PublishOptions): Promise<PublishResult> {
  const verified = await openVerifiedManifest(options.manifestPath);
  try {
    const parent = verified.manifest;
    if (parent.kind !== 'universe' && parent.kind !== 'split') {
      throw new InputError(
        'PUBLISH_KIND_UNSUPPORTED',
        `${options.manifestPath}: manifest kind is '${parent.kind}'; asof publish takes a universe or a split`,
        { context: { file: options.manifestPath, value: parent.kind } },
      );
    }
    if (!options.private) checkParentTerms(parent, verified.dir, options);
    const value = await writeDerivedDir(
      verified,
      {
        outDir: options.outDir,
        manifestPath: options.manifestPath,
        command: 'asof publish',
        writes: 'publish',
      },
      async ({ dir, work }) => {
        const duck = await Duck.open({ threads: 2, tempDirectory: join(work, 'spill') });
        try {
          return await publishInto(duck, verified, dir, options);
        } finally {
          duck.close();
        }
      },
      (v) => v.manifest,
    );
    return {
      manifest: value.manifest,
      manifestPath: join(options.outDir, 'manifest.json'),
      version: value.version,
    };
  } finally {
    verified.close();
  }
}

/**
 * The licensing check of docs/decisions/0066 on the manifest alone: a universe's raw folders; a split's
 * universe when given (it must be the split's parent). A split of non-synthetic series without its universe
 * is checked in publishInto (it needs the split's series).
 */
function checkParentTerms(parent: Manifest, dir: string, options: PublishOptions): void {
  if (parent.kind === 'universe') {
    checkRedistribution(parent, dir, options.manifestPath);
    return;
  }
  if (options.universePath === undefined) return;
  const universe = readManifest(options.universePath);
  if (universe.dataset_id !== parent.parent_dataset_id) {
    throw new InputError(
      'PUBLISH_UNIVERSE_MISMATCH',
      `--universe ${options.universePath}: dataset_id ${universe.dataset_id.slice(0, 12)}… is not the split's parent ${String(parent.parent_dataset_id).slice(0, 12)}…`,
      { context: { file: options.universePath } },
    );
  }
  // The pipeline file's path is relative to the universe's real folder (the generation a link names).
  checkRedistribution(universe, dirname(realpathSync(options.universePath)), options.universePath);
}

/** Writes the folder's data, card, Croissant, fev tasks and manifest into `dir`. */
async function publishInto(
  duck: Duck,
  verified: VerifiedManifest,
  dir: string,
  options: PublishOptions,
): Promise<{ manifest: Manifest; version: string }> {
  const parent = verified.manifest;
  const kind = parent.kind as 'universe' | 'split';
  await stageSources(duck, verified, kind);
  const terms = describeSourceTerms(
    (
      await duck.all<{ source: string; synthetic: boolean; series: bigint }>(
        `SELECT source, is_synthetic AS synthetic, count(*) AS series
         FROM publish_series_source GROUP BY source, is_synthetic ORDER BY source, is_synthetic`,
      )
    ).map((r) => ({ source: r.source, synthetic: r.synthetic, series: Number(r.series) })),
  );
  if (
    kind === 'split' &&
    !options.private &&
    options.universePath === undefined &&
    terms.some((t) => !t.synthetic)
  ) {
    throw new InputError(
      'PUBLISH_UNIVERSE_NEEDED',
      `${options.manifestPath}: the split holds series that are not synthetic (${terms
        .filter((t) => !t.synthetic)
        .map((t) => t.source)
        .join(
          ', ',
        )}), and their inputs' terms are checked on its universe; hint: add --universe U/manifest.json, or --private (docs/decisions/0066)`,
      { context: { file: options.manifestPath } },
    );
  }
  const written: WrittenFile[] = [];
  const configs: PublishedConfig[] = [];
  for (const c of planPublishConfigs(kind)) {
    const { files, columns } = await writePublishedConfig(duck, dir, c, options.csv === true);
    written.push(...files);
    configs.push({ ...c, columns, rows: files[0].rows, files: [] });
    options.log?.(`${files.map((f) => f.path).join(', ')}: ${files[0].rows.toLocaleString('en-US')} rows`);
  }
  const dataOutputs = await Promise.all(written.map((w) => manifestOutput(dir, w)));
  for (const c of configs) {
    c.files = dataOutputs
      .filter((o) => o.table === c.config)
      .map((o) => ({
        path: o.path,
        format: o.path.endsWith('.csv') ? 'csv' : 'parquet',
        sha256: o.sha256,
        bytes: o.bytes,
      }));
  }
  const version = await nextPublishVersion(
    duck,
    options.outDir,
    join(dir, ...shardPath(configs[0], 'parquet').split('/')),
  );
  const dataset: PublishedDataset = {
    name: parent.name,
    kind,
    parentDatasetId: parent.dataset_id,
    version: version.version,
    datePublished: options.date ?? new Date().toISOString().slice(0, 10),
    url: options.url ?? `https://huggingface.co/datasets/${parent.name}`,
    creator: options.creator ?? 'asof',
    live: isLiveManifest(parent),
    configs,
    warnings: parent.warnings,
    terms,
    license: licenseOf(terms),
    split: kind === 'split' ? await splitWindows(duck, verified) : null,
  };
  const docs = writeDocuments(dir, dataset);
  const outputs: ManifestOutput[] = [
    ...dataOutputs,
    ...(await Promise.all(docs.map((w) => manifestOutput(dir, w)))),
  ];
  const manifest = finalizeDerivedManifest(parent, {
    suffix: 'publish',
    kind: 'publish',
    duckdbVersion: await duck.version(),
    createdBy: options.createdBy,
    config: {
      format: 'huggingface',
      parent_kind: kind,
      version: version.version,
      previous_version: version.previous,
      change: version.change,
      private: options.private === true,
      csv: options.csv === true,
      url: dataset.url,
      date_published: dataset.datePublished,
      is_live_dataset: dataset.live,
      configs: configs.map((c) => ({ config: c.config, split: c.split, rows: c.rows })),
    },
    inputs: parentInputs(verified),
    outputs,
    warnings: parent.warnings,
    summary: {
      configs: configs.length,
      files: outputs.length,
      rows: configs.reduce((s, c) => s + c.rows, 0),
    },
  });
  writeManifest(join(dir, 'manifest.json'), manifest);
  return { manifest, version: version.version };
}

/** The views the models read: the parent's observations, series and tasks, through the verified paths. */
async function stageSources(
  duck: Duck,
  verified: VerifiedManifest,
  kind: 'universe' | 'split',
): Promise<void> {
  const tables = SOURCE_TABLES[kind];
  for (const [view, table] of Object.entries(tables)) {
    const paths = verified
      .files(table)
      .filter((f) => f.output.path.endsWith('.parquet'))
      .map((f) => f.readPath);
    if (paths.length === 0) {
      throw new InputError(
        'PUBLISH_KIND_UNSUPPORTED',
        `${verified.label}: the ${kind} lists no ${table} file`,
        {
          context: { file: verified.label },
        },
      );
    }
    await duck.createView(
      `publish_${view}_source`,
      'SELECT * FROM read_parquet($paths, hive_partitioning = false, union_by_name = true)',
      { paths: listValue(paths) },
    );
  }
}

/** Per frequency, the split's horizon (horizon_steps), windows per series, first origin and series. */
async function splitWindows(
  duck: Duck,
  verified: VerifiedManifest,
): Promise<NonNullable<PublishedDataset['split']>> {
  const c = verified.manifest.config as Record<string, unknown>;
  const rows = await duck.all<{
    frequency: string;
    horizon: number;
    windows: bigint;
    initial_cutoff: string;
    series: bigint;
  }>(
    `SELECT frequency, max(horizon_steps)::INTEGER AS horizon, max(n) AS windows,
            iso_instant(make_timestamp(epoch_us(min(origin)))) AS initial_cutoff, count(DISTINCT series_id) AS series
     FROM (SELECT *, count(*) OVER (PARTITION BY series_id) AS n
           FROM read_parquet($paths, hive_partitioning = false))
     GROUP BY frequency ORDER BY frequency`,
    { paths: listValue(verified.readPaths('origins')) },
  );
  const windows: PublishedWindows[] = rows.map((r) => ({
    frequency: r.frequency,
    horizon: Number(r.horizon),
    windows: Number(r.windows),
    initial_cutoff: r.initial_cutoff,
    series: Number(r.series),
  }));
  return {
    train_cutoff: String(c.train_cutoff),
    model_cutoff: typeof c.model_cutoff === 'string' ? c.model_cutoff : null,
    run_date: typeof c.run_date === 'string' ? c.run_date : null,
    windows,
  };
}

/** README.md, croissant.json and (a split) tasks.yaml, written into `dir`; their manifest entries' parts. */
function writeDocuments(dir: string, d: PublishedDataset): WrittenFile[] {
  const description = describeDataset(d);
  const files: [string, string, string][] = [
    ['README.md', 'card', renderDatasetCard(d, description)],
    ['croissant.json', 'croissant', `${JSON.stringify(buildCroissant(d, description), null, 2)}\n`],
  ];
  if (d.split) files.push(['tasks.yaml', 'fev_tasks', renderFevTasks(d)]);
  return files.map(([path, table, text]) => {
    writeFileSync(join(dir, path), text);
    return {
      path,
      table,
      rows: 0,
      columns: [],
      min_timestamp: null,
      max_timestamp: null,
      min_available_at: null,
      max_available_at: null,
    };
  });
}

/** The dataset's one-paragraph description (the card's opening and croissant.json's description). */
function describeDataset(d: PublishedDataset): string {
  const obs = d.configs.find((c) => c.config === 'observations');
  const series = d.configs.find((c) => c.config === 'series');
  const what =
    d.kind === 'split'
      ? `The training part of a point-in-time forecasting split: what was public by ${d.split?.train_cutoff}`
      : 'A point-in-time universe of financial and economic time series';
  return `${what}, built with asof. ${series?.rows ?? 0} series and ${obs?.rows ?? 0} observations; every observation carries the instant it is about (timestamp) and the first instant it was public (available_at), and revisions are kept as vintages, so a model can be trained and evaluated only on what was known at each date.`;
}

/**
 * Whether the data keep changing (croissant's isLiveDataset): a universe made by `asof update` (it names
 * the universe it updated) or reading a source live (a section with neither synthetic data nor a raw folder,
 * not offline). A split is a fixed cut: never live.
 */
export function isLiveManifest(m: Manifest): boolean {
  if (m.kind !== 'universe') return false;
  if (m.parent_dataset_id !== null) return true;
  const sources = (m.config.sources ?? {}) as Record<string, Record<string, unknown> | undefined>;
  return Object.entries(sources).some(
    ([name, s]) =>
      s !== undefined &&
      name !== 'embedded' &&
      name !== 'scale' &&
      s.synthetic === undefined &&
      s.raw_dir === undefined &&
      s.offline !== true,
  );
}
