import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isoToMicros, microsToIso, periodLabel } from '@asof/calendar';
import {
  BIGINT,
  BOOLEAN,
  createTextEnum,
  Duck,
  describeParquet,
  keyRanges,
  loadSql,
  MAX_ROWS_PER_FILE,
  type Params,
  partPath,
  quoteIdent,
  quoteLiteral,
  sortWithCodes,
  type TextCodes,
  VARCHAR,
} from '@asof/duck';
import {
  finalizeDerivedManifest,
  manifestOutput,
  openVerifiedManifest,
  type VerifiedManifest,
  writeManifest,
} from '@asof/manifest';
import { faultPoint, type OutputWork, planOutput, writeOutputDir } from '@asof/output';
import {
  AsofError,
  AVAILABLE_AT_BASES,
  FREQUENCIES,
  type Frequency,
  InputError,
  type Manifest,
  type ManifestOutput,
} from '@asof/schema';
import { minimumLookback, predictionLength } from '@asof/taxonomy';
import { checkDmCompatible, isDmValid, ORIGINS_POLICIES, type OriginsPolicy } from './check-dm-compatible.ts';
import { parseEmbargo, subtractEmbargo } from './parse-embargo.ts';
import {
  refuseEmptyFilter,
  requireFilterNames,
  type SeriesFilters,
  seriesFilterConfig,
  seriesFilterSql,
} from './series-filter-sql.ts';

export const TARGET_VINTAGES = ['first_release', 'latest'] as const;
export type TargetVintage = (typeof TARGET_VINTAGES)[number];

export const LAYOUTS = ['per_origin', 'compact'] as const;
/**
 * `per_origin`: inputs.parquet has one row per (series, origin, timestamp) and targets.parquet one per
 * (series, origin, step) — spelled out. `compact` (for --origins all on large universes, where per-origin
 * files are origins × (lookback + H) rows): inputs.parquet holds each observation vintage any origin can
 * see once, with `superseded_at` (input at o = rows with lookback_start <= timestamp <= o and
 * available_at <= o < superseded_at, see input_rows.sql), and targets.parquet each grid step's target once
 * by step_index (target of o at step k = step_index origin_index + k, see target_rows.sql).
 */
export type Layout = (typeof LAYOUTS)[number];

/** The split models in dependency order (packages/split/sql/<name>.sql), with the per-origin inputs. */
export const SPLIT_MODELS = [
  'series_keys',
  // Before train_series, which places the training snapshot's ends on the grid.
  'series_grid',
  'train_observations',
  'train_series',
  'withdrawn_vintages',
  'eval_observations',
  'target_values',
  'origin_candidates',
  'input_windows',
  'inputs',
  'origins',
  'withdrawals',
  'targets',
] as const;

/** The models of a split whose inputs are written in `format`. */
export function splitModels(layout: Layout): string[] {
  if (layout === 'per_origin') return [...SPLIT_MODELS];
  return SPLIT_MODELS.map((m) => (m === 'inputs' ? 'input_rows' : m === 'targets' ? 'target_rows' : m));
}

/**
 * Models created as views, computed where they are read: train_observations (the training snapshot, most of
 * a split's rows) is read by train_series once and streamed into its Parquet parts once, so materialising
 * it first cost a full write and scan of the largest table (SPEC §12).
 */
const VIEW_MODELS: ReadonlySet<string> = new Set(['train_observations']);

/**
 * Creates one split model, as a table or (VIEW_MODELS) a view, under its own name. series_keys is followed
 * by the ENUM types of SPLIT_CODES, which the later models and the writes cast to.
 */
export async function createSplitModel(duck: Duck, name: string, params: Params): Promise<void> {
  const sql = splitModelSql(name);
  await (VIEW_MODELS.has(name) ? duck.createView(name, sql, params) : duck.createTable(name, sql, params));
  if (name === 'series_keys') await createSplitCodes(duck);
}

const SQL_DIR = new URL('../sql/', import.meta.url);

/** The text of `sql/<name>.sql`. */
export function splitModelSql(name: string): string {
  return loadSql(SQL_DIR, name);
}

export interface SplitOptions extends SeriesFilters {
  /** The parent universe's manifest.json (absolute). Its files are re-hashed before anything is read. */
  manifestPath: string;
  /**
   * Output folder: replaced only when absent, empty or asof's, and only when the split succeeds
   * (docs/decisions/0010-output-safety.md).
   */
  outDir: string;
  /** Called once the parent is verified, before anything is read from it (tests: a rebuild meanwhile). */
  afterParentVerified?: () => Promise<void>;
  /** First evaluation date, YYYY-MM-DD (default: the parent's config.eval_start, else 2020-01-01). */
  evalStart?: string;
  /** Days (`30`) or a date duration (`P30D`, `P1M`); default 0. */
  embargo?: string;
  origins?: OriginsPolicy;
  targetVintage?: TargetVintage;
  /** Model knowledge cutoff c (date or ISO instant); needs runDate. */
  modelCutoff?: string;
  /** Run date r (date or ISO instant): targets public after r are pending; origins after r are not served. */
  runDate?: string;
  /** The split will be scored with a Diebold–Mariano test: refused with overlapping origins. */
  dm?: boolean;
  /** How inputs.parquet and targets.parquet are laid out (default per_origin). */
  layout?: Layout;
  /** Lookback steps per frequency, overriding FinVerse Table 2 minimums. */
  lookback?: Partial<Record<Frequency, number>>;
  createdBy?: { asof_version: string; git_commit: string | null; git_dirty: boolean | null };
  threads?: number;
  /** DuckDB memory limit (default: the parent's config.duckdb.memory_limit, else 60%); DuckDB spills beyond it. */
  memoryLimit?: string;
  /** Working tables in memory or in a temporary database file (default: the parent's config.duckdb.storage). */
  storage?: 'memory' | 'file';
  /**
   * Refuse a per_origin layout whose inputs would exceed this many rows (default 50M): with --origins all on a
   * large universe, per-origin inputs are origins × lookback rows; --layout compact holds the same data.
   */
  maxPerOriginRows?: number;
  log?: (line: string) => void;
}

export interface SplitResult {
  manifest: Manifest;
  manifestPath: string;
  seconds: number;
}

/** A date means 00:00 UTC of that day (as eval_start does in the build); an instant is taken as given. */
export function parseInstantArg(text: string, flag: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return microsToIso(isoToMicros(`${text}T00:00:00Z`, flag));
  return microsToIso(isoToMicros(text, flag));
}

interface OutputSpec {
  path: string;
  /** The table name the manifest lists. */
  table: string;
  /** The DuckDB table written (default: `table`). */
  source?: string;
  /** Starts with series_key, which orders like series_id (series_keys.sql) and is not written. */
  orderBy: string;
  timeColumns?: [string, string | null];
  /** `key`, `n` rows per series_key, when a smaller table knows them (default: a count over `source`). */
  counts?: string;
}

const outputsFor = (format: Layout, withTasks: boolean): OutputSpec[] => [
  ...(withTasks
    ? [
        {
          path: 'tasks.parquet',
          table: 'tasks',
          source: 'split_tasks',
          orderBy: 'series_key, aspect, metric, p, h',
        },
      ]
    : []),
  {
    path: 'train/observations.parquet',
    table: 'train_observations',
    orderBy: 'series_key, "timestamp"',
    timeColumns: ['timestamp', 'available_at'],
    // train_series.n_obs counts the snapshot's rows per series: no second pass over the view for the cut.
    counts: 'SELECT series_key AS key, n_obs AS n FROM train_series',
  },
  { path: 'train/series.parquet', table: 'train_series', orderBy: 'series_key' },
  {
    path: 'origins.parquet',
    table: 'origins',
    source: 'labelled_origins',
    orderBy: 'series_key, origin',
    timeColumns: ['origin', null],
  },
  {
    path: 'withdrawals.parquet',
    table: 'withdrawals',
    orderBy: 'series_key, "timestamp", available_at',
    timeColumns: ['timestamp', 'available_at'],
  },
  format === 'per_origin'
    ? {
        path: 'inputs.parquet',
        table: 'inputs',
        orderBy: 'series_key, origin, "timestamp"',
        timeColumns: ['timestamp', 'available_at'],
      }
    : {
        path: 'inputs.parquet',
        table: 'input_rows',
        orderBy: 'series_key, "timestamp", available_at',
        timeColumns: ['timestamp', 'available_at'],
      },
  format === 'per_origin'
    ? {
        path: 'targets.parquet',
        table: 'targets',
        orderBy: 'series_key, origin, step',
        timeColumns: ['timestamp', 'available_at'],
      }
    : {
        path: 'targets.parquet',
        table: 'target_rows',
        orderBy: 'series_key, step_index',
        timeColumns: ['timestamp', 'available_at'],
      },
];

/**
 * Splits a built universe (SPEC §8): the training snapshot at eval_start − embargo, the evaluation origins
 * with their model-cutoff windows, the inputs (as-of view at each origin) and the targets (chosen vintage),
 * each a deterministic Parquet file, plus a derived manifest naming the parent's dataset_id.
 */
export async function runSplit(options: SplitOptions): Promise<SplitResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const step = (what: string) => log(`[${((performance.now() - started) / 1000).toFixed(1)}s] ${what}`);
  const policy = options.origins ?? 'non_overlapping';
  if (!ORIGINS_POLICIES.includes(policy)) {
    throw new InputError('ORIGINS_INVALID', `--origins ${policy}: use one of ${ORIGINS_POLICIES.join(', ')}`);
  }
  const vintage = options.targetVintage ?? 'first_release';
  if (!TARGET_VINTAGES.includes(vintage)) {
    throw new InputError(
      'TARGET_VINTAGE_INVALID',
      `--target-vintage ${vintage}: use one of ${TARGET_VINTAGES.join(', ')}`,
    );
  }
  const layout = options.layout ?? 'per_origin';
  if (!LAYOUTS.includes(layout)) {
    throw new InputError('LAYOUT_INVALID', `--layout ${layout}: use one of ${LAYOUTS.join(', ')}`);
  }
  checkDmCompatible(policy, options.dm ?? false);
  if (options.modelCutoff !== undefined && options.runDate === undefined) {
    throw new InputError(
      'RUN_DATE_REQUIRED',
      `--model-cutoff ${options.modelCutoff} needs --run-date: T2 and T3 are defined by what is known at the run date`,
    );
  }
  const modelCutoff =
    options.modelCutoff === undefined ? null : parseInstantArg(options.modelCutoff, '--model-cutoff');
  const runDate = options.runDate === undefined ? null : parseInstantArg(options.runDate, '--run-date');
  if (modelCutoff !== null && runDate !== null && isoToMicros(modelCutoff) > isoToMicros(runDate)) {
    throw new InputError(
      'CUTOFF_AFTER_RUN_DATE',
      `--model-cutoff ${options.modelCutoff} is after --run-date ${options.runDate}; a model cannot be run before its knowledge cutoff`,
    );
  }

  const manifestPath = resolve(options.manifestPath);
  const dataDir = dirname(manifestPath);
  // Checked before anything is read: the output may not be the parent universe, lie in it, or hold it.
  planOutput(options.outDir, 'dir', {
    command: 'asof split',
    writes: 'split',
    inputs: [dataDir, manifestPath],
  });
  const verified = await openVerifiedManifest(manifestPath);
  try {
    const parent = verified.manifest;
    step(`verified parent ${parent.dataset_id.slice(0, 12)} (${parent.outputs.length} files)`);
    await options.afterParentVerified?.();
    const evalStart =
      options.evalStart ?? (parent.config as { eval_start?: string }).eval_start ?? '2020-01-01';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(evalStart)) {
      throw new InputError(
        'EVAL_START_INVALID',
        `--eval-start ${evalStart}: use a date YYYY-MM-DD, e.g. 2020-01-01`,
      );
    }
    const evalStartIso = parseInstantArg(evalStart, '--eval-start');
    const embargo = parseEmbargo(options.embargo);
    const trainCutoffDate = subtractEmbargo(evalStart, embargo);
    const trainCutoff = parseInstantArg(trainCutoffDate, '--embargo');
    const horizons = Object.fromEntries(
      FREQUENCIES.map((f) => [
        f,
        { prediction_length: predictionLength(f), lookback: options.lookback?.[f] ?? minimumLookback(f) },
      ]),
    ) as Record<Frequency, { prediction_length: number; lookback: number }>;
    for (const [f, h] of Object.entries(horizons)) {
      if (!Number.isInteger(h.lookback) || h.lookback < 1) {
        throw new InputError(
          'LOOKBACK_INVALID',
          `lookback for ${f} is ${h.lookback}; use a whole number of steps >= 1`,
        );
      }
    }
    const settings = {
      policy,
      vintage,
      layout,
      modelCutoff,
      runDate,
      evalStart,
      evalStartIso,
      embargo,
      trainCutoff,
      horizons,
    };
    const { value: manifest, path } = await writeOutputDir(
      options.outDir,
      {
        command: 'asof split',
        writes: 'split',
        inputs: [dataDir, manifestPath],
        label: (m: Manifest) => m.dataset_id.slice(0, 12),
        // A parent file written to in place while the split read it: refuse rather than publish a split
        // of mixed content under the parent's id.
        beforeSwitch: () => verified.recheck(),
      },
      (work) => verified.guard(() => splitInto(work, verified, options, settings, step)),
    );
    step(`done: ${join(path, 'manifest.json')}`);
    return {
      manifest,
      manifestPath: join(path, 'manifest.json'),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    verified.close();
  }
}

interface SplitSettings {
  policy: OriginsPolicy;
  vintage: TargetVintage;
  layout: Layout;
  modelCutoff: string | null;
  runDate: string | null;
  evalStart: string;
  evalStartIso: string;
  embargo: ReturnType<typeof parseEmbargo>;
  trainCutoff: string;
  horizons: Record<Frequency, { prediction_length: number; lookback: number }>;
}

/** The split itself, writing into the temp folder `work.dir`. */
async function splitInto(
  work: OutputWork,
  verified: VerifiedManifest,
  options: SplitOptions,
  s: SplitSettings,
  step: (what: string) => void,
): Promise<Manifest> {
  const parent = verified.manifest;
  const tmp = work.dir;
  mkdirSync(join(tmp, 'train'), { recursive: true });
  let duck: Duck | undefined;
  try {
    const parentDuck = (parent.config as { duckdb?: { memory_limit?: string; storage?: string } }).duckdb;
    // The parent's storage choice (pipeline duckdb.storage) holds for its split: 'file' keeps the working
    // tables compressed in a database file in the temp output's .work/ folder, removed with it.
    const storage = options.storage ?? parentDuck?.storage ?? 'memory';
    duck = await Duck.open({
      threads: options.threads ?? 2,
      memoryLimit: options.memoryLimit ?? parentDuck?.memory_limit ?? '60%',
      // Named in an out-of-memory message as what to raise: `asof split --memory-limit`.
      memoryLimitSource: { field: '--memory-limit' },
      tempDirectory: join(work.work, 'spill'),
      ...(storage === 'file' ? { path: join(work.work, 'split.duckdb') } : {}),
    });
    await loadParent(duck, verified, s.horizons, options);
    step('loaded parent observations and series');
    const params: Params = {
      train_cutoff: s.trainCutoff,
      eval_start: s.evalStartIso,
      run_date: s.runDate ?? 'infinity',
      model_cutoff: s.modelCutoff ?? 'infinity',
      has_cutoff: s.modelCutoff !== null,
      origins_policy: s.policy,
      target_vintage: s.vintage,
    };
    for (const name of splitModels(s.layout)) {
      await createSplitModel(duck, name, params);
      step(`model ${name}`);
      if (name === 'input_windows' && s.layout === 'per_origin') {
        const rows = Number(
          (await duck.one<{ n: bigint }>('SELECT coalesce(sum(n_input_steps), 0) AS n FROM input_windows')).n,
        );
        const max = options.maxPerOriginRows ?? 50_000_000;
        if (rows > max) {
          throw new InputError(
            'PER_ORIGIN_TOO_LARGE',
            `per-origin inputs would be ${rows.toLocaleString('en-US')} rows (over ${max.toLocaleString('en-US')}) with --origins ${s.policy}; use --layout compact (the same inputs, each vintage written once) or --origins non_overlapping`,
            { context: { rows, max, origins: s.policy } },
          );
        }
      }
    }
    await labelOrigins(duck);
    step('model labelled_origins');
    await faultPoint('run:midway');
    await assertSplitInvariants(duck, s.layout);
    const outputs: ManifestOutput[] = [];
    const withTasks = verified.has('tasks');
    if (withTasks) {
      await duck.createTable('split_tasks', splitModelSql('split_tasks'));
      step('model split_tasks');
    }
    for (const spec of outputsFor(s.layout, withTasks))
      outputs.push(...(await writeOutputs(duck, tmp, spec)));
    await assertTrainInvariants(duck, tmp, outputs, s.trainCutoff);
    if (verified.has('membership')) outputs.push(await writeMembership(duck, tmp));
    step(`wrote ${outputs.length} Parquet files`);
    const summary = await summarize(duck, s.layout);
    const config = {
      eval_start: s.evalStart,
      embargo: s.embargo.text,
      train_cutoff: s.trainCutoff,
      origins_policy: s.policy,
      layout: s.layout,
      dm_requested: options.dm ?? false,
      dm_valid: isDmValid(s.policy),
      target_vintage: s.vintage,
      model_cutoff: s.modelCutoff,
      run_date: s.runDate,
      horizons: s.horizons,
      // Only when given: a split of every series keeps the config (and dataset_id) it always had.
      ...(seriesFilterConfig(options) ? { series_filter: seriesFilterConfig(options) } : {}),
    };
    const manifest = finalizeDerivedManifest(parent, {
      suffix: 'split',
      kind: 'split',
      duckdbVersion: await duck.version(),
      createdBy: options.createdBy,
      config,
      // The parent's manifest as it was verified (not read again: it may have been rebuilt meanwhile).
      inputs: [
        { source: 'parent', key: 'manifest.json', sha256: verified.sha256, bytes: verified.bytes.length },
      ],
      outputs,
      warnings: [...parent.warnings, ...emptyWindowWarnings(summary, s)],
      summary,
    });
    writeManifest(join(tmp, 'manifest.json'), manifest);
    return manifest;
  } finally {
    duck?.close();
  }
}

/** The windows a model cutoff asks for, with what an empty one means and the flag to change. */
const WINDOW_EMPTY_REASONS: Record<string, string> = {
  T1: 'no origin has all its targets public before the model cutoff (a cutoff before the first targets were published): nothing to compare T2 with; pass an earlier --eval-start or a later --model-cutoff',
  T2: 'no origin after the model cutoff has all its targets public by the run date (a cutoff after the data ends, or a run date too soon after it): nothing the model cannot have seen is scored; pass an earlier --model-cutoff or a later --run-date',
  T3: 'every origin has all its targets public by the run date: no pending origin',
};

/**
 * SPLIT_WINDOW_EMPTY per window the model cutoff asks for (T1, T2, T3) that holds no origin: the split is
 * still written (exit 0), and the warning travels in its manifest (and into every score of it).
 */
function emptyWindowWarnings(summary: Record<string, unknown>, s: SplitSettings): Manifest['warnings'] {
  if (s.modelCutoff === null) return [];
  const rows = summary.by_frequency_window as { window: string; origins: number }[];
  return ['T1', 'T2', 'T3']
    .filter((w) => !rows.some((r) => r.window === w && r.origins > 0))
    .map((w) => ({
      code: 'SPLIT_WINDOW_EMPTY',
      message: `window ${w} is empty with --model-cutoff ${s.modelCutoff} and --run-date ${s.runDate}: ${WINDOW_EMPTY_REASONS[w]}`,
    }));
}

/**
 * origin_label for every origin: TypeScript labels the distinct (frequency, origin, fiscal) keys with
 * @asof/calendar's periodLabel (New York dates; SQL works in UTC only, docs/decisions/0024), then
 * labelled_origins.sql joins them back.
 */
async function labelOrigins(duck: Duck): Promise<void> {
  await duck.createTable('origin_label_keys', splitModelSql('origin_label_keys'));
  const keys = await duck.all<{ frequency: string; us: bigint; fiscal: boolean }>(
    'SELECT frequency, epoch_us(origin) AS us, fiscal FROM origin_label_keys ORDER BY frequency, origin, fiscal',
  );
  await duck.run(
    'CREATE OR REPLACE TABLE origin_label_values (frequency VARCHAR, origin TIMESTAMPTZ, fiscal BOOLEAN, origin_label VARCHAR)',
  );
  await duck.run(
    'CREATE OR REPLACE TEMP TABLE origin_label_us (frequency VARCHAR, us BIGINT, fiscal BOOLEAN, origin_label VARCHAR)',
  );
  await duck.appendColumns(
    'origin_label_us',
    [VARCHAR, BIGINT, BOOLEAN, VARCHAR],
    [
      keys.map((k) => k.frequency),
      keys.map((k) => k.us),
      keys.map((k) => k.fiscal),
      keys.map((k) => periodLabel(Number(k.us), k.frequency, k.fiscal ? 'non-calendar' : null)),
    ],
  );
  await duck.run(
    'INSERT INTO origin_label_values SELECT frequency, make_timestamptz(us), fiscal, origin_label FROM origin_label_us',
  );
  await duck.createTable('labelled_origins', splitModelSql('labelled_origins'));
}

/** The frequency partition of an observations file, from the path the manifest lists (frequency=<F>/…). */
function frequencyOfPath(path: string): string {
  const m = /(?:^|\/)frequency=([A-Z]+)\//.exec(path);
  if (!m) {
    throw new InputError(
      'PARENT_INCOMPLETE',
      `observations file ${path} is not under a frequency=<F>/ folder; a split needs a universe built by 'asof build'`,
      { context: { file: path } },
    );
  }
  return m[1];
}

async function loadParent(
  duck: Duck,
  verified: VerifiedManifest,
  horizons: Record<Frequency, { prediction_length: number; lookback: number }>,
  filters: SeriesFilters,
): Promise<void> {
  const obsFiles = verified.files('observations');
  const seriesFile = verified.files('series')[0];
  if (obsFiles.length === 0 || !seriesFile) {
    throw new InputError(
      'PARENT_INCOMPLETE',
      `${verified.label} lists ${obsFiles.length} observation files and ${seriesFile ? 'a' : 'no'} series file; a split needs a universe built by 'asof build'`,
    );
  }
  // Only the files the verified manifest lists, read through the descriptors that were hashed (never a
  // glob over whatever else lies in the folder); the frequency comes from each file's listed path.
  const observationsOf = (files: typeof obsFiles) =>
    files
      .map(
        (
          f,
        ) => `SELECT series_id, ${quoteLiteral(frequencyOfPath(f.output.path))} AS frequency, "timestamp", period_start,
                available_at, value, available_at_basis, source_ref FROM read_parquet(${quoteLiteral(f.readPath)})`,
      )
      .join('\n     UNION ALL ');
  await duck.run(`CREATE VIEW split_observations AS\n     ${observationsOf(obsFiles)}`);
  await requireFilterNames(duck, seriesFile.readPath, filters, verified.label);
  const filter = seriesFilterSql(filters);
  await duck.run(
    `CREATE TABLE split_series AS SELECT * FROM read_parquet(${quoteLiteral(seriesFile.readPath)}) WHERE ${filter.sql}`,
    Object.keys(filter.params).length ? filter.params : undefined,
  );
  const kept = Number((await duck.one<{ n: bigint }>('SELECT count(*) AS n FROM split_series')).n);
  if (kept === 0) await refuseEmptyFilter(duck, seriesFile.readPath, filters, verified.label);
  // The files of the frequencies that hold a revised series: the per-timestamp work on revisions reads
  // these only (at FinVerse scale the BD and D bars, most rows, have none), so the training snapshot scans
  // the big files once instead of buffering every row for a second pass (train_observations.sql).
  const revised = new Set(
    (
      await duck.all<{ frequency: string }>(
        'SELECT DISTINCT frequency FROM split_series WHERE n_revisions > 0',
      )
    ).map((r) => r.frequency),
  );
  const revisedFiles = obsFiles.filter((f) => revised.has(frequencyOfPath(f.output.path)));
  await duck.run(
    `CREATE VIEW split_revised_observations AS\n     ${
      revisedFiles.length > 0 ? observationsOf(revisedFiles) : 'SELECT * FROM split_observations WHERE false'
    }`,
  );
  // Membership (docs/decisions/0021): the resolved spans decide which origins are served; the evidence rows
  // of the split's entities go into the split. A universe built before membership has neither: everyone is
  // a member.
  const spansFile = verified.files('member_spans')[0];
  await duck.run(
    spansFile
      ? `CREATE TABLE split_member_spans AS SELECT * FROM read_parquet(${quoteLiteral(spansFile.readPath)})
         WHERE entity_id IN (SELECT entity_id FROM split_series)`
      : 'CREATE TABLE split_member_spans (entity_id VARCHAR, "from" TIMESTAMPTZ, "to" TIMESTAMPTZ, member BOOLEAN)',
  );
  const membershipFile = verified.files('membership')[0];
  if (membershipFile) {
    await duck.run(
      `CREATE TABLE split_membership AS SELECT * FROM read_parquet(${quoteLiteral(membershipFile.readPath)})
       WHERE entity_id IN (SELECT entity_id FROM split_series)`,
    );
  }
  const tasksFile = verified.files('tasks')[0];
  if (tasksFile) {
    await duck.run(
      `CREATE TABLE parent_tasks AS SELECT * FROM read_parquet(${quoteLiteral(tasksFile.readPath)})`,
    );
  }
  await duck.run(
    'CREATE TABLE split_horizons (frequency VARCHAR, horizon_steps INTEGER, lookback_steps INTEGER)',
  );
  for (const [frequency, h] of Object.entries(horizons)) {
    await duck.run('INSERT INTO split_horizons VALUES ($f, $h, $l)', {
      f: frequency,
      h: h.prediction_length,
      l: h.lookback,
    });
  }
}

export class SplitInvariantError extends AsofError {
  constructor(check: string, count: number) {
    super(
      'SPLIT_INVARIANT_VIOLATED',
      `the split broke an invariant: ${check} (${count} rows); this is a bug in @asof/split`,
      {
        context: { check, count },
      },
    );
  }
}

/** Defence in depth: the properties the SQL guarantees, re-checked on the tables before anything is written
 * (the training snapshot's, after: assertTrainInvariants). */
async function assertSplitInvariants(duck: Duck, format: Layout): Promise<void> {
  const checks: [string, string, Params?][] = [
    format === 'per_origin'
      ? [
          'inputs available_at <= origin and timestamp <= origin',
          'SELECT count(*) AS n FROM inputs WHERE available_at > origin OR "timestamp" > origin',
        ]
      : [
          'input rows superseded after they appeared',
          'SELECT count(*) AS n FROM input_rows WHERE superseded_at <= available_at',
        ],
    [
      'no withdrawal (value NULL) served as input or target',
      `SELECT (SELECT count(*) FROM ${format === 'per_origin' ? 'inputs' : 'input_rows'} WHERE value IS NULL)
         + (SELECT count(*) FROM ${format === 'per_origin' ? 'targets' : 'target_rows'} WHERE value IS NULL) AS n`,
    ],
    [
      'origins window within lookback_steps',
      'SELECT count(*) AS n FROM origins WHERE n_input_steps > lookback_steps OR lookback_start > origin',
    ],
    format === 'per_origin'
      ? ['targets after their origin', 'SELECT count(*) AS n FROM targets WHERE "timestamp" <= origin']
      : [
          'target rows after the first origin',
          `SELECT count(*) AS n FROM target_rows t JOIN (SELECT series_id, min(origin_index) AS i FROM origins GROUP BY 1) o
           USING (series_id) WHERE t.step_index <= o.i`,
        ],
  ];
  await assertNone(duck, checks);
}

/**
 * The training snapshot's invariants, checked on the files written (train_observations is a view, so this reads
 * what is served instead of computing the snapshot once more): nothing public at or after the cutoff, no
 * withdrawal (value NULL) served as training data. The files are in the temp output, discarded if this throws.
 */
export async function assertTrainInvariants(
  duck: Duck,
  dir: string,
  outputs: readonly Pick<ManifestOutput, 'path' | 'table'>[],
  trainCutoff: string,
): Promise<void> {
  const files = outputs
    .filter((o) => o.table === 'train_observations')
    .map((o) => quoteLiteral(join(dir, ...o.path.split('/'))));
  const train = `read_parquet([${files.join(', ')}])`;
  await assertNone(duck, [
    [
      'train available_at < eval_start − embargo',
      `SELECT count(*) AS n FROM ${train} WHERE available_at >= $c::TIMESTAMPTZ`,
      { c: trainCutoff },
    ],
    [
      'no withdrawal (value NULL) served as training data',
      `SELECT count(*) AS n FROM ${train} WHERE value IS NULL`,
    ],
  ]);
}

async function assertNone(duck: Duck, checks: readonly [string, string, Params?][]): Promise<void> {
  for (const [name, sql, params] of checks) {
    const n = Number((await duck.one<{ n: bigint }>(sql, params)).n);
    if (n > 0) throw new SplitInvariantError(name, n);
  }
}

/**
 * The text columns the split holds and sorts as ENUM codes, with the query giving every value each takes:
 * the split's series (series_keys), their frequencies, the parent's source_refs and the closed vocabulary of
 * available_at_basis. eval_observations stores basis and ref as codes (a table of strings costs most of its
 * insert), which the tables built from it inherit; the writes cast every one of these columns to its code
 * before their sort and back to VARCHAR after it (sortWithCodes), so the files hold the same text.
 */
const SPLIT_CODES: Record<string, [type: string, values: string]> = {
  series_id: ['asof_series_text', 'SELECT series_id FROM series_keys'],
  frequency: ['asof_frequency_text', 'SELECT frequency FROM series_keys'],
  source_ref: ['asof_ref_text', 'SELECT source_ref FROM split_observations'],
  available_at_basis: [
    'asof_basis_text',
    `SELECT unnest([${AVAILABLE_AT_BASES.map((b) => quoteLiteral(b)).join(', ')}])`,
  ],
};

async function createSplitCodes(duck: Duck): Promise<void> {
  for (const [type, values] of Object.values(SPLIT_CODES)) await createTextEnum(duck, type, values);
}

/**
 * Writes one split table, cut between series into files of at most MAX_ROWS_PER_FILE rows (one file,
 * named spec.path, unless the table is larger: then name-000.parquet, name-001.parquet…), so each COPY sorts in
 * memory at FinVerse scale. Readers take every file the manifest lists under the table's name.
 */
async function writeOutputs(duck: Duck, dir: string, spec: OutputSpec): Promise<ManifestOutput[]> {
  const ranges = await keyRanges(
    duck,
    spec.counts ??
      `SELECT series_key AS key, count(*) AS n FROM ${quoteIdent(spec.source ?? spec.table)} GROUP BY series_key`,
    undefined,
    MAX_ROWS_PER_FILE,
  );
  // An empty table is still written (one empty file), so the manifest always names every table.
  if (ranges.length === 0) ranges.push([0, 0]);
  const source = quoteIdent(spec.source ?? spec.table);
  const columns = (
    await duck.all<{ column_name: string; column_type: string }>(`DESCRIBE SELECT * FROM ${source}`)
  ).filter((c) => c.column_name !== 'series_key');
  const codes: TextCodes = Object.fromEntries(
    columns
      .filter(
        (c) =>
          (c.column_type === 'VARCHAR' || c.column_type.startsWith('ENUM')) &&
          Object.hasOwn(SPLIT_CODES, c.column_name),
      )
      .map((c) => [c.column_name, SPLIT_CODES[c.column_name][0]]),
  );
  const outputs: ManifestOutput[] = [];
  for (const [i, [lo, hi]] of ranges.entries()) {
    const path = partPath(spec.path, i, ranges.length);
    const file = join(dir, ...path.split('/'));
    await duck.writeParquet(
      sortWithCodes(
        columns.map((c) => c.column_name),
        `FROM ${source} WHERE series_key BETWEEN $lo AND $hi`,
        spec.orderBy,
        codes,
      ),
      file,
      { lo, hi },
    );
    outputs.push(
      await manifestOutput(dir, {
        path,
        table: spec.table,
        ...(await describeParquet(duck, file, spec.timeColumns)),
      }),
    );
  }
  return outputs;
}

/**
 * membership.parquet: the parent's membership rows of the split's entities, the evidence for which origins
 * were served (grain and order as in the universe).
 */
async function writeMembership(duck: Duck, dir: string): Promise<ManifestOutput> {
  const file = join(dir, 'membership.parquet');
  await duck.writeParquet(
    'SELECT * FROM split_membership ORDER BY entity_id, universe, source, "from" NULLS FIRST, available_at NULLS FIRST',
    file,
  );
  return manifestOutput(dir, {
    path: 'membership.parquet',
    table: 'membership',
    ...(await describeParquet(duck, file)),
  });
}

async function summarize(duck: Duck, format: Layout): Promise<Record<string, unknown>> {
  const n = async (sql: string) => Number((await duck.one<{ n: bigint }>(sql)).n);
  const byRows = await duck.all<Record<string, string | bigint | null>>(
    `SELECT frequency, coalesce("window", 'none') AS "window", count(*) AS origins,
            count(DISTINCT series_id) AS series
     FROM origins GROUP BY ALL ORDER BY frequency, "window"`,
  );
  return {
    train_series: await n('SELECT count(*) AS n FROM train_series'),
    train_observations: await n('SELECT coalesce(sum(n_obs), 0) AS n FROM train_series'),
    eval_series: await n('SELECT count(DISTINCT series_id) AS n FROM origins'),
    origins: await n('SELECT count(*) AS n FROM origins'),
    origins_straddling_cutoff_dropped: await n(
      `SELECT count(*) AS n FROM origin_candidates WHERE "window" = 'straddles_cutoff'`,
    ),
    origins_not_member_dropped: await n(
      `SELECT count(*) AS n FROM origin_candidates WHERE "window" IS DISTINCT FROM 'straddles_cutoff' AND NOT member`,
    ),
    origins_with_pending_targets: await n('SELECT count(*) AS n FROM origins WHERE target_known_at IS NULL'),
    inputs: await n(`SELECT count(*) AS n FROM ${format === 'per_origin' ? 'inputs' : 'input_rows'}`),
    input_steps_served: await n('SELECT coalesce(sum(n_input_steps), 0) AS n FROM origins'),
    targets: await n(`SELECT count(*) AS n FROM ${format === 'per_origin' ? 'targets' : 'target_rows'}`),
    by_frequency_window: byRows.map((r) => ({
      frequency: String(r.frequency),
      window: String(r.window),
      origins: Number(r.origins),
      series: Number(r.series),
    })),
  };
}
