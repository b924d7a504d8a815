import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isoToMicros, microsToIso, periodLabel } from '@asof/calendar';
import { BIGINT, BOOLEAN, Duck, type Params, VARCHAR } from '@asof/duck';
import {
  finalizeDerivedManifest,
  openVerifiedManifest,
  type VerifiedManifest,
  writeManifest,
} from '@asof/manifest';
import { faultPoint, type OutputWork, planOutput, writeOutputDir } from '@asof/output';
import { FREQUENCIES, type Frequency, InputError, type Manifest, type ManifestOutput } from '@asof/schema';
import { minimumLookback, predictionLength } from '@asof/taxonomy';
import { checkDmCompatible, isDmValid, ORIGINS_POLICIES, type OriginsPolicy } from './check-dm-compatible.ts';
import { loadParent } from './load-split-parent.ts';
import { parseEmbargo, subtractEmbargo } from './parse-embargo.ts';
import { type SeriesFilters, seriesFilterConfig } from './series-filter-sql.ts';
import { assertSplitInvariants, assertTrainInvariants } from './split-invariants.ts';
import {
  createSplitModel,
  LAYOUTS,
  type Layout,
  splitModelSql,
  splitModels,
  TARGET_VINTAGES,
  type TargetVintage,
} from './split-models.ts';
import { outputsFor, writeMembership, writeOutputs } from './split-outputs.ts';
import { emptyWindowWarnings, summarize } from './split-summary.ts';

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

export interface SplitSettings {
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
