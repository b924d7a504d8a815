import { isoToMicros, type Micros, microsToIso } from '@asof/calendar';
import { type Duck, loadQuery, quoteLiteral } from '@asof/duck';
import { assertSplitManifest, type VerifiedManifest } from '@asof/manifest';
import { InputError } from '@asof/schema';
import { parseEmbargo, parseInstantArg, subtractEmbargo } from '@asof/split';

const SQL_DIR = new URL('../sql/', import.meta.url);

/** One (series, origin) pair of the split, as the runner serves it. */
export interface Pair {
  pair_no: number;
  series_id: string;
  frequency: string;
  origin: Micros;
  origin_label: string | null;
  origin_index: number;
  lookback_steps: number | null;
  lookback_start: Micros | null;
  n_input_steps: number;
  horizon_steps: number;
  fiscal: boolean;
}

/** What the runner knows about a split before it starts the model. */
export interface RunSplit {
  dataset_id: string;
  parent_dataset_id: string | null;
  layout: string;
  origins_policy: string | null;
  eval_start: string;
  embargo: string;
  /** eval_start − embargo (checked against the split's config): every training row was public before it. */
  train_cutoff: string;
  trainCutoffUs: Micros;
  /** Every pair, in serving order (origin, then series_id). */
  pairs: Pair[];
  horizons: Record<string, number>;
  lookbacks: Record<string, number>;
  trainSeries: number;
  trainRows: number;
  evalSeries: number;
  origins: number;
}

export function readRunnerSql(name: string): string {
  return loadQuery(SQL_DIR, name);
}

function incomplete(manifestPath: string, detail: string): InputError {
  return new InputError(
    'RUN_SPLIT_INCOMPLETE',
    `${manifestPath}: ${detail}; a split made by 'asof split' has it — remake the split`,
    { context: { file: manifestPath } },
  );
}

/**
 * Stages the verified split files as DuckDB views (only the files the manifest lists, read through the
 * descriptors that were hashed), checks what the runner relies on — kind split, origins, inputs with
 * step_index, the training snapshot, and the embargo: the train cutoff is eval_start − embargo and no
 * training row was published at or after it — and loads the pairs in serving order.
 */
export async function openRunSplit(
  duck: Duck,
  verified: VerifiedManifest,
  manifestPath: string,
): Promise<RunSplit> {
  const manifest = verified.manifest;
  assertSplitManifest(manifest, manifestPath, 'RUN_NOT_A_SPLIT', 'pass');
  const files = (table: string) =>
    `read_parquet([${verified.readPaths(table).map(quoteLiteral).join(', ')}])`;
  const compact = verified.has('input_rows');
  const inputTable = compact ? 'input_rows' : 'inputs';
  for (const table of ['origins', inputTable, 'train_observations', 'train_series']) {
    if (!verified.has(table)) throw incomplete(manifestPath, `it lists no ${table} file`);
  }
  const columns = async (table: string) =>
    new Set(
      (await duck.all<{ column_name: string }>(`DESCRIBE SELECT * FROM ${files(table)}`)).map(
        (c) => c.column_name,
      ),
    );
  if (!(await columns(inputTable)).has('step_index')) {
    throw incomplete(manifestPath, `its ${inputTable} carry no step_index (an older 'asof split')`);
  }
  // origin_label is in every split since periodLabel; an older one gets its labels from the runner.
  const originLabel = (await columns('origins')).has('origin_label') ? '' : ', NULL::VARCHAR AS origin_label';
  await duck.run(`CREATE VIEW split_origins AS SELECT *${originLabel} FROM ${files('origins')}`);
  await duck.run(`CREATE VIEW split_train AS SELECT * FROM ${files('train_observations')}`);
  await duck.run(`CREATE VIEW split_train_series AS SELECT * FROM ${files('train_series')}`);
  await duck.run(
    `CREATE VIEW split_input_rows AS SELECT series_id, "timestamp", available_at, value, step_index FROM ${files(inputTable)}`,
  );
  await duck.run(
    verified.has('withdrawals')
      ? `CREATE VIEW split_withdrawals AS SELECT series_id, "timestamp", available_at FROM ${files('withdrawals')}`
      : `CREATE VIEW split_withdrawals AS SELECT series_id, "timestamp", available_at FROM split_train WHERE false`,
  );
  const config = manifest.config as Record<string, unknown>;
  const cutoff = assertEmbargo(config, manifestPath);
  const trainCutoffUs = isoToMicros(cutoff.train_cutoff, `${manifestPath} config.train_cutoff`);
  const late = await duck.all<{ series_id: string; ts: string; av: string }>(
    `SELECT series_id, "timestamp"::VARCHAR AS ts, available_at::VARCHAR AS av FROM split_train
     WHERE available_at >= $c::TIMESTAMPTZ OR available_at IS NULL OR value IS NULL LIMIT 1`,
    { c: cutoff.train_cutoff },
  );
  if (late.length) {
    throw new InputError(
      'RUN_EMBARGO_BREACHED',
      `${manifestPath}: train/observations has ${late[0].series_id} @ ${late[0].ts} published ${late[0].av ?? 'never (NULL)'}, not before the train cutoff ${cutoff.train_cutoff} (eval_start ${cutoff.eval_start} − embargo ${cutoff.embargo}); the split is not a valid one — remake it with 'asof split'`,
      { context: { file: manifestPath, series_id: late[0].series_id, value: late[0].av } },
    );
  }
  await duck.createTable('runner_pairs', readRunnerSql('runner_pairs'));
  await duck.createTable('runner_served', readRunnerSql('runner_served'));
  const raw = await duck.all<{
    pair_no: bigint;
    series_id: string;
    frequency: string;
    origin_us: bigint;
    origin_label: string | null;
    origin_index: bigint;
    lookback_steps: number | null;
    lookback_start_us: bigint | null;
    n_input_steps: number;
    horizon_steps: number;
    fiscal: boolean;
  }>('SELECT * FROM runner_pairs ORDER BY pair_no');
  const pairs: Pair[] = raw.map((r) => ({
    pair_no: Number(r.pair_no),
    series_id: r.series_id,
    frequency: r.frequency,
    origin: Number(r.origin_us),
    origin_label: r.origin_label,
    origin_index: Number(r.origin_index),
    lookback_steps: r.lookback_steps,
    lookback_start: r.lookback_start_us === null ? null : Number(r.lookback_start_us),
    n_input_steps: r.n_input_steps,
    horizon_steps: r.horizon_steps,
    fiscal: r.fiscal,
  }));
  const evalStartUs = isoToMicros(parseInstantArg(cutoff.eval_start, 'eval_start'), 'eval_start');
  const early = pairs.find((p) => p.origin < evalStartUs);
  if (early) {
    throw new InputError(
      'RUN_ORIGIN_BEFORE_EVAL_START',
      `${manifestPath}: origin ${microsToIso(early.origin)} of ${early.series_id} is before eval_start ${cutoff.eval_start}, so the embargo between training and evaluation does not hold; remake the split with 'asof split'`,
      { context: { file: manifestPath, series_id: early.series_id, value: microsToIso(early.origin) } },
    );
  }
  const stats = await duck.one<{ series: bigint; rows: bigint }>(
    'SELECT count(DISTINCT series_id) AS series, count(*) AS rows FROM split_train',
  );
  const horizons: Record<string, number> = {};
  const lookbacks: Record<string, number> = {};
  for (const p of pairs) {
    horizons[p.frequency] = Math.max(horizons[p.frequency] ?? 0, p.horizon_steps);
    if (p.lookback_steps !== null)
      lookbacks[p.frequency] = Math.max(lookbacks[p.frequency] ?? 0, p.lookback_steps);
  }
  return {
    dataset_id: manifest.dataset_id,
    parent_dataset_id: manifest.parent_dataset_id,
    layout: compact ? 'compact' : 'per_origin',
    origins_policy: typeof config.origins_policy === 'string' ? config.origins_policy : null,
    ...cutoff,
    trainCutoffUs,
    pairs,
    horizons,
    lookbacks,
    trainSeries: Number(stats.series),
    trainRows: Number(stats.rows),
    evalSeries: new Set(pairs.map((p) => p.series_id)).size,
    origins: new Set(pairs.map((p) => p.origin)).size,
  };
}

/**
 * The embargo, asserted: the split's train_cutoff must be its eval_start − embargo (00:00 UTC), as
 * `asof split` computes it, and every origin is at or after eval_start (checked by the caller's pairs).
 */
function assertEmbargo(
  config: Record<string, unknown>,
  manifestPath: string,
): { eval_start: string; embargo: string; train_cutoff: string } {
  const evalStart = config.eval_start;
  const embargoText = config.embargo;
  const cutoff = config.train_cutoff;
  if (typeof evalStart !== 'string' || typeof embargoText !== 'string' || typeof cutoff !== 'string') {
    throw incomplete(manifestPath, 'its config has no eval_start, embargo and train_cutoff');
  }
  const embargo = parseEmbargo(embargoText);
  const expected = parseInstantArg(subtractEmbargo(evalStart, embargo), `${manifestPath} config.embargo`);
  if (isoToMicros(cutoff, `${manifestPath} config.train_cutoff`) !== isoToMicros(expected, 'train cutoff')) {
    throw new InputError(
      'RUN_EMBARGO_MISMATCH',
      `${manifestPath}: config.train_cutoff ${cutoff} is not eval_start ${evalStart} − embargo ${embargo.text} (${expected}); the split's training snapshot does not respect its embargo — remake it with 'asof split'`,
      { context: { file: manifestPath, value: cutoff, expected } },
    );
  }
  return { eval_start: evalStart, embargo: embargo.text, train_cutoff: expected };
}
