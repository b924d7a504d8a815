import { dirname, join } from 'node:path';
import {
  BASELINE_MODELS,
  BASELINE_QUANTILE_LEVELS,
  DEFAULT_REFIT_EVERY,
  type FittedBaselineModel,
  type PointBaselineModel,
  quantileColumnName,
  SEASON_LENGTH,
} from '@asof/baselines';
import { microsToIso } from '@asof/calendar';
import { BIGINT, Duck, INTEGER, loadQuery, quoteLiteral, streamNumbers, VARCHAR } from '@asof/duck';
import { assertSplitManifest, openVerifiedManifest, type VerifiedManifest } from '@asof/manifest';
import { ASOF_PARQUET_KEY, faultPoint, runInterruptibly, writeOutputFile } from '@asof/output';
import { elapsedStamp, InputError, type Manifest } from '@asof/schema';
import { arimaForecaster } from './arima-forecaster.ts';
import { withPointMass } from './baseline-chunk.ts';
import { BaselinesPool } from './baselines-pool.ts';
import { driftForecaster } from './drift-forecaster.ts';
import { type ForecastColumns, ForecastParts } from './forecast-parts.ts';
import { garchForecaster } from './garch-forecaster.ts';
import { type GuardCounts, HistoryStore } from './history-store.ts';
import { type BlockColumns, chunksOfBlock, forecastInParallel } from './parallel-baselines.ts';
import { type Forecaster, type ForecastTask, randomWalkForecaster, runForecaster } from './run-forecaster.ts';
import { type PathForecaster, runPathForecaster } from './run-path-forecaster.ts';
import { seasonalNaiveForecaster } from './seasonal-naive-forecaster.ts';

/** The forecaster of each baseline: point forecasters, and path forecasters with quantiles for ARIMA and GARCH. */
type BaselineForecasters = Record<PointBaselineModel, Forecaster> &
  Record<FittedBaselineModel, PathForecaster>;

export interface BaselineForecastsResult {
  manifest: Manifest;
  path: string;
  rows: number;
  origins: number;
  series: number;
  /** historyAt requests and rows checked by the look-ahead guard, summed over every block of series. */
  guard: { requests: number; rows: number };
  /** Wall seconds of each model's pass over the blocks (its forecasts, their parts, any block loading). */
  seconds: Record<(typeof BASELINE_MODELS)[number], number>;
}

export interface BaselineForecastsOptions {
  /** Progress lines (series done / total, rows written), at most one every `progressSeconds`, and a last one. */
  log?: (line: string) => void;
  progressSeconds?: number;
  /**
   * A block of consecutive series holds at most about this many served history rows, or forecast rows per
   * model (a single larger series is a block of its own). It bounds what the JavaScript side holds at once.
   */
  blockRows?: number;
  /** DuckDB memory_limit of the run (default 2GB); its work tables and each part's sort spill to the work folder. */
  memoryLimit?: string;
  /** ARIMA and GARCH re-estimate their parameters every K origins of a series (default 10, as `asof score`). */
  refitEvery?: number;
  /**
   * Threads that fit ARIMA and GARCH (default 1: on the calling thread). Above 1, that many worker threads
   * fit chunks of whole series, put back in series order: the same file, byte for byte, at any count. A
   * model given in `override` always runs on the calling thread (a function does not cross threads).
   */
  threads?: number;
}

const SQL_DIR = new URL('../sql/', import.meta.url);
const DEFAULT_BLOCK_ROWS = 1_000_000;

function outputsOf(manifest: Manifest, tables: readonly string[]): string[] {
  return manifest.outputs.filter((o) => tables.includes(o.table)).map((o) => o.path);
}

/**
 * `asof baselines`: the random walk, drift, seasonal-naive, ARIMA and GARCH(1,1) forecasts of every origin
 * of a split, written as a forecasts file (schemas/forecast.schema.json) that `asof score` accepts; ARIMA
 * and GARCH rows carry the quantiles q0.05…q0.95 (empty for the point baselines), their parameters
 * re-estimated every `refitEvery` origins of a series in ascending origin order, as the scorer does. The split manifest is
 * verified first. Every value comes from a forecaster that sees the history only through
 * OriginView.historyAt, the split's look-ahead guard; a LookaheadError aborts the run (nothing is written).
 * The history served is what the split serves: the training snapshot and every origin's inputs (each
 * read as of the origin), so the forecasts equal the scorer's own baselines (FORECAST_BASELINE_MISMATCH
 * otherwise).
 *
 * The work goes by blocks of consecutive series: the served history is staged once in a DuckDB database in
 * the work folder, each block's history is loaded into its own HistoryStore, and each block's forecasts
 * are appended to a DuckDB table there; the file is written from that table, sorted on its grain. So an
 * all-origins split (hundreds of thousands of origins, tens of millions of forecasts) never sits in
 * JavaScript arrays at once, and the file is the same bytes as from one store over every series.
 */
export async function writeBaselineForecasts(
  manifestPath: string,
  outPath: string,
  /** Replaces a baseline's forecaster (tests: a forecaster that reads past its origin must abort the run). */
  override: Partial<BaselineForecasters> = {},
  options: BaselineForecastsOptions = {},
): Promise<BaselineForecastsResult> {
  const verified = await openVerifiedManifest(manifestPath);
  try {
    const written = await writeOutputFile(
      outPath,
      {
        command: 'asof baselines',
        writes: 'forecasts',
        inputs: [manifestPath, dirname(manifestPath)],
        protectedFiles: verified.files().map((f) => f.path),
        beforeSwitch: () => verified.recheck(),
      },
      ({ file, work }) =>
        verified.guard(() => computeBaselines(verified, manifestPath, file, work, override, options)),
    );
    return { ...written.value, path: written.path };
  } finally {
    verified.close();
  }
}

interface SeriesRow {
  series_no: bigint;
  series_id: string;
  frequency: string;
  n_origins: bigint;
  n_steps: bigint;
  n_rows: bigint;
}

interface OriginRow {
  origin_no: number;
  series_no: bigint;
  series_id: string;
  origin: bigint;
  origin_index: bigint;
  horizon_steps: number;
  lookback_steps: number | null;
}

/** A run of consecutive series (series_no first..last). */
interface Block {
  first: number;
  last: number;
  series: number;
}

async function computeBaselines(
  verified: VerifiedManifest,
  manifestPath: string,
  outFile: string,
  work: string,
  override: Partial<BaselineForecasters>,
  options: BaselineForecastsOptions,
): Promise<BaselineForecastsResult> {
  const manifest = verified.manifest;
  assertSplitManifest(manifest, manifestPath, 'BASELINES_NOT_A_SPLIT', 'pass');
  const originFiles = outputsOf(manifest, ['origins']);
  const historyFiles = outputsOf(manifest, ['train_observations', 'inputs', 'input_rows']);
  if (originFiles.length === 0 || historyFiles.length === 0) {
    throw new InputError(
      'BASELINES_SPLIT_INCOMPLETE',
      `${manifestPath} lists ${originFiles.length} origins file(s) and ${historyFiles.length} history file(s) (train_observations, inputs); a split made by 'asof split' has both`,
      { context: { file: manifestPath } },
    );
  }
  // A database file in the work folder (removed with it): the staged history lives on disk, compressed,
  // whatever the size of the split; the forecasts go out as sorted parts (ForecastParts).
  // Started before the staging, so that the workers load their code meanwhile; ended in any case below.
  const pool = (options.threads ?? 1) > 1 ? new BaselinesPool(options.threads as number).start() : null;
  const duck = await Duck.open({
    threads: 2,
    memoryLimit: options.memoryLimit ?? '2GB',
    memoryLimitSource: { field: '--memory-limit' },
    tempDirectory: join(work, 'spill'),
    path: join(work, 'baselines.duckdb'),
  });
  try {
    await stageSplit(duck, verified, manifestPath);
    const series = await duck.all<SeriesRow>(
      `SELECT s.series_no, s.series_id, s.frequency, s.n_origins, s.n_steps, coalesce(r.n_rows, 0) AS n_rows
       FROM baseline_series AS s
       LEFT JOIN (SELECT series_no, count(*) AS n_rows FROM baseline_served GROUP BY series_no) AS r USING (series_no)
       ORDER BY s.series_no`,
    );
    const frequency = new Map(series.map((s) => [s.series_id, s.frequency]));
    const seriesIds: string[] = [];
    for (const s of series) seriesIds[Number(s.series_no)] = s.series_id;
    // One forecaster per model for the whole run: ARIMA's and GARCH's refit schedules count each series'
    // origins, which the blocks give in ascending order (a series is never split between blocks).
    const refitEvery = options.refitEvery ?? DEFAULT_REFIT_EVERY;
    const forecasters: BaselineForecasters = {
      random_walk: randomWalkForecaster,
      drift: driftForecaster,
      seasonal_naive: seasonalNaiveForecaster((id) => SEASON_LENGTH[frequency.get(id) ?? ''] ?? 1),
      arima: arimaForecaster({ refitEvery }),
      garch: garchForecaster({ refitEvery }),
      ...override,
    };
    await duck.run('CREATE TABLE forecast_origins (origin_no INTEGER, series_id VARCHAR, origin_us BIGINT)');
    // model_rank: the model's place in name order, which is the file's order of models.
    await duck.run('CREATE TABLE forecast_models (model_no INTEGER, model VARCHAR, model_rank INTEGER)');
    const byName = [...BASELINE_MODELS].sort();
    await duck.appendColumns(
      'forecast_models',
      [INTEGER, VARCHAR, INTEGER],
      [BASELINE_MODELS.map((_, i) => i), [...BASELINE_MODELS], BASELINE_MODELS.map((m) => byName.indexOf(m))],
    );
    const parts = await ForecastParts.open(duck, join(work, 'parts'), readSql('baseline_forecasts'));
    const threads = options.threads ?? 1;
    const parallel = (name: string): name is FittedBaselineModel =>
      pool !== null && (name === 'arima' || name === 'garch') && override[name] === undefined;
    const blocks = planBlocks(series, options.blockRows ?? DEFAULT_BLOCK_ROWS);
    const totalOrigins = series.reduce((s, r) => s + Number(r.n_origins), 0);
    const progress = progressLog(options, series.length, totalOrigins, blocks.length);
    const totals = { origins: 0, series: 0, guard: { requests: 0, rows: 0 } as GuardCounts };
    // Model by model in name order, each over every block in series order: the forecasts arrive in the
    // file's own order (model, series_id, origin, step), so they go out as parts without a sort of the
    // whole file. The blocks stay loaded from one model to the next while all their history fits in
    // twice a block's budget (a small split: loading is most of a point baseline's time); otherwise each
    // model loads each block again (a few seconds per million rows, small beside ARIMA's fits).
    const blockRows = options.blockRows ?? DEFAULT_BLOCK_ROWS;
    const kept =
      series.reduce((s, r) => s + Number(r.n_rows), 0) <= 2 * blockRows
        ? new Map<Block, LoadedBlock>()
        : null;
    const passes = byName.length * blocks.length;
    let pass = 0;
    const seconds = Object.fromEntries(
      BASELINE_MODELS.map((m) => [m, 0]),
    ) as BaselineForecastsResult['seconds'];
    for (const [rank, name] of byName.entries()) {
      const started = performance.now();
      const m = BASELINE_MODELS.indexOf(name);
      let seriesDone = 0;
      const load = async (block: Block) => {
        // A block kept for every model has both; otherwise a model on the workers needs only the columns,
        // one on this thread only the store.
        const loaded =
          kept?.get(block) ??
          (await loadBlock(
            duck,
            block,
            seriesIds,
            kept !== null || parallel(name),
            kept === null && !parallel(name),
          ));
        kept?.set(block, loaded);
        if (rank === 0) {
          await appendOrigins(duck, loaded.origins);
          totals.origins += loaded.tasks.length;
          totals.series += new Set(loaded.tasks.map((t) => t.series_id)).size;
        }
        return loaded;
      };
      const done = async (block: Block, out: ForecastColumns, guard: GuardCounts) => {
        await parts.append(m, rank, out);
        totals.guard.requests += guard.requests;
        totals.guard.rows += guard.rows;
        seriesDone += block.series;
        progress.block(name, seriesDone, parts.rows);
        // Once, half-way through the passes (the kill and SIGINT tests stop a run here).
        if (2 * ++pass >= passes && 2 * (pass - 1) < passes) await faultPoint('run:midway');
      };
      if (parallel(name)) {
        await parallelPass(blocks, load, done, (loaded) =>
          forecastInParallel(pool as BaselinesPool, chunksOfBlock(loaded, threads), name, refitEvery).then(
            (run) => ({
              out: originNumbers(loaded, run.taskOfRow, run.columns, name, manifestPath),
              guard: run.guard,
            }),
          ),
        );
      } else {
        for (const block of blocks) {
          const loaded = await load(block);
          const before = { ...loaded.store.guard };
          // ARIMA's and GARCH's fits run for seconds without yielding: Ctrl-C still acts at once (audit 1.9).
          const out = await runInterruptibly(() => forecastModel(loaded, name, forecasters, manifestPath));
          const after = loaded.store.guard;
          await done(block, out, {
            requests: after.requests - before.requests,
            rows: after.rows - before.rows,
          });
        }
      }
      seconds[name] = (performance.now() - started) / 1000;
    }
    if (passes === 0) await faultPoint('run:midway');
    const files = await parts.finish();
    progress.writing(parts.rows, files.length);
    // The asof entry marks the file as asof's, so a later run may replace it (and only it). It names no
    // split: the same forecasts from either split layout are the same bytes.
    await duck.concatParquet(files, outFile, {
      kvMetadata: {
        [ASOF_PARQUET_KEY]: JSON.stringify({
          kind: 'forecasts',
          models: [...BASELINE_MODELS],
        }),
      },
    });
    progress.finished(parts.rows);
    return {
      manifest,
      path: outFile,
      rows: parts.rows,
      origins: totals.origins,
      series: totals.series,
      guard: totals.guard,
      seconds,
    };
  } finally {
    duck.close();
    await pool?.close();
  }
}

/**
 * A model's pass on the worker threads, one block ahead: while the workers fit block b, the main thread
 * loads block b+1, and it writes block b's forecasts while they fit block b+1. The blocks still load,
 * and their forecasts still go out, in block order (DuckDB sees one call at a time).
 */
async function parallelPass(
  blocks: readonly Block[],
  load: (block: Block) => Promise<LoadedBlock>,
  done: (block: Block, out: ForecastColumns, guard: GuardCounts) => Promise<void>,
  forecast: (loaded: LoadedBlock) => Promise<{ out: ForecastColumns; guard: GuardCounts }>,
): Promise<void> {
  const start = (loaded: LoadedBlock) => {
    const running = forecast(loaded);
    // Awaited below; until then a failure must not count as unhandled (Node would end the process).
    running.catch(() => {});
    return running;
  };
  let running = blocks.length > 0 ? start(await load(blocks[0])) : null;
  for (const [i, block] of blocks.entries()) {
    const next = i + 1 < blocks.length ? await load(blocks[i + 1]) : null;
    const result = await (running as ReturnType<typeof forecast>);
    running = next ? start(next) : null;
    await done(block, result.out, result.guard);
  }
}

/**
 * Views over the verified files (only those the manifest lists, read through the descriptors that were
 * hashed), then the work tables the blocks read: the series, the served history, the grid and the origins,
 * each ordered by series_no so that a block's range query reads only its own row groups.
 */
async function stageSplit(duck: Duck, verified: VerifiedManifest, manifestPath: string): Promise<void> {
  const manifest = verified.manifest;
  const files = (table: string) =>
    `read_parquet([${verified
      .readPaths(table)
      .map((p) => quoteLiteral(p))
      .join(', ')}])`;
  const compact = outputsOf(manifest, ['input_rows']).length > 0;
  const inputTable = compact ? 'input_rows' : 'inputs';
  const inputColumns = await duck.all<{ column_name: string }>(`DESCRIBE SELECT * FROM ${files(inputTable)}`);
  if (!inputColumns.some((c) => c.column_name === 'step_index')) {
    throw new InputError(
      'BASELINES_SPLIT_OUTDATED',
      `${manifestPath}: its inputs carry no step_index (written by an older 'asof split'), so a series released late cannot be placed on its grid; remake the split with 'asof split'`,
      { context: { file: manifestPath } },
    );
  }
  // train_series places the training snapshot on the grid (first_step_index, last_step_index): drift's
  // slope counts grid steps from the snapshot's first row, and the scorer places it the same way.
  const trainSeriesColumns = outputsOf(manifest, ['train_series']).length
    ? await duck.all<{ column_name: string }>(`DESCRIBE SELECT * FROM ${files('train_series')}`)
    : [];
  if (!trainSeriesColumns.some((c) => c.column_name === 'first_step_index')) {
    throw new InputError(
      'BASELINES_SPLIT_OUTDATED',
      `${manifestPath}: its train/series.parquet carries no first_step_index (written by an older 'asof split'), so the training snapshot cannot be placed on the grid for the drift baseline; remake the split with 'asof split'`,
      { context: { file: manifestPath } },
    );
  }
  await duck.run(`CREATE VIEW split_origins AS SELECT * FROM ${files('origins')}`);
  await duck.run(`CREATE VIEW split_train AS SELECT * FROM ${files('train_observations')}`);
  await duck.run(`CREATE VIEW split_train_series AS SELECT * FROM ${files('train_series')}`);
  await duck.run(`CREATE VIEW split_input_steps AS SELECT * FROM ${files(inputTable)}`);
  if (compact) {
    await duck.run(`CREATE VIEW split_input_rows AS SELECT * FROM ${files('input_rows')}`);
    await duck.run(`CREATE VIEW served_inputs AS ${readSql('baseline_compact_inputs')}`);
  } else {
    await duck.run('CREATE VIEW served_inputs AS SELECT * FROM split_input_steps');
  }
  // The withdrawals (value NULL) make the as-of view at each origin leave out what the inputs leave out.
  await duck.run(
    outputsOf(manifest, ['withdrawals']).length
      ? `CREATE VIEW split_withdrawals AS
         SELECT series_id, "timestamp", available_at, NULL::DOUBLE AS value FROM ${files('withdrawals')}`
      : `CREATE VIEW split_withdrawals AS
         SELECT series_id, "timestamp", available_at, NULL::DOUBLE AS value FROM split_train WHERE false`,
  );
  for (const model of ['baseline_series', 'baseline_served', 'baseline_grid', 'baseline_origins']) {
    await duck.createTable(model, readSql(model));
  }
}

function readSql(name: string): string {
  return loadQuery(SQL_DIR, name);
}

/** Consecutive series, cut where a block would pass `limit` history rows or forecast rows per model. */
function planBlocks(series: readonly SeriesRow[], limit: number): Block[] {
  const blocks: Block[] = [];
  let current: Block | undefined;
  let rows = 0;
  let steps = 0;
  for (const s of series) {
    const n = Number(s.series_no);
    const r = Number(s.n_rows);
    const k = Number(s.n_steps);
    if (current && (rows + r > limit || steps + k > limit)) {
      blocks.push(current);
      current = undefined;
    }
    if (!current) {
      current = { first: n, last: n, series: 0 };
      rows = 0;
      steps = 0;
    }
    current.last = n;
    current.series++;
    rows += r;
    steps += k;
  }
  if (current) blocks.push(current);
  return blocks;
}

/**
 * A block's origins, its history in a HistoryStore of its own and as flat columns (what the worker threads
 * get), and the forecast tasks of its served origins with their series_no.
 */
interface LoadedBlock {
  origins: OriginRow[];
  served: OriginRow[];
  tasks: ForecastTask[];
  taskSeriesNo: number[];
  store: HistoryStore;
  /** Empty when the block was loaded for the main thread only. */
  columns: BlockColumns;
}

/** Appends a stream's chunks of numbers into one Float64Array per column. */
function columnCollector(names: readonly string[]) {
  const parts: Float64Array[][] = names.map(() => []);
  return {
    add(columns: Float64Array[], n: number) {
      for (const [i, col] of columns.entries()) parts[i].push(col.slice(0, n));
    },
    done(): Record<string, Float64Array> {
      const out: Record<string, Float64Array> = {};
      for (const [i, name] of names.entries()) {
        const all = new Float64Array(parts[i].reduce((s, a) => s + a.length, 0));
        let at = 0;
        for (const a of parts[i]) {
          all.set(a, at);
          at += a.length;
        }
        out[name] = all;
      }
      return out;
    },
  };
}

async function loadBlock(
  duck: Duck,
  block: Block,
  seriesIds: readonly string[],
  /** Keep the history as flat columns (what the worker threads get). */
  withColumns: boolean,
  /**
   * Build the store now, its rows made while DuckDB streams the next chunks; otherwise from the columns
   * when first asked for. Made after the stream, and with the columns' copies beside them (more garbage
   * while a million row objects are live), a block took ~0.5 s longer to load at scale 0.1.
   */
  withStore: boolean,
): Promise<LoadedBlock> {
  const range = { first: block.first, last: block.last };
  const origins = await duck.all<OriginRow>(
    `SELECT origin_no, series_no, series_id, origin, origin_index, horizon_steps, lookback_steps FROM baseline_origins
     WHERE series_no BETWEEN $first AND $last ORDER BY series_no, origin`,
    range,
  );
  // Streamed as numbers (series_no, not the id text): about 3× faster than row objects at a million rows.
  // series_no indexes seriesIds.
  // A NULL value (NaN in the stream; asof never stores NaN) is a withdrawal
  // (docs/decisions/0007-withdrawal-rows.md): historyAt leaves it out.
  const rows: { series_id: string; ts: number; av: number; value: number | null }[] = [];
  const pushRows = (no: Float64Array, ts: Float64Array, av: Float64Array, value: Float64Array, n: number) => {
    for (let i = 0; i < n; i++) {
      const v = value[i];
      rows.push({ series_id: seriesIds[no[i]], ts: ts[i], av: av[i], value: Number.isNaN(v) ? null : v });
    }
  };
  const rowColumns = columnCollector(['no', 'ts', 'av', 'value']);
  // A series is in the store exactly when it has a served row (a withdrawal included); the rows come in
  // series_no order, so the set gets each series once rather than each row.
  const stored = new Set<number>();
  let lastNo = Number.NaN;
  await streamNumbers(
    duck,
    `SELECT series_no, ts, av, value FROM baseline_served
     WHERE series_no BETWEEN $first AND $last ORDER BY series_no, ts, av`,
    range,
    ([no, ts, av, value], n) => {
      for (let i = 0; i < n; i++) {
        if (no[i] !== lastNo) stored.add(no[i]);
        lastNo = no[i];
      }
      if (withColumns) rowColumns.add([no, ts, av, value], n);
      if (withStore) pushRows(no, ts, av, value, n);
    },
  );
  const grid: { series_id: string; ts: number; step: number }[] = [];
  const pushGrid = (no: Float64Array, ts: Float64Array, step: Float64Array, n: number) => {
    for (let i = 0; i < n; i++) grid.push({ series_id: seriesIds[no[i]], ts: ts[i], step: step[i] });
  };
  const gridColumns = columnCollector(['no', 'ts', 'step']);
  await streamNumbers(
    duck,
    `SELECT series_no, ts, step FROM baseline_grid
     WHERE series_no BETWEEN $first AND $last ORDER BY series_no, ts, step`,
    range,
    ([no, ts, step], n) => {
      if (withColumns) gridColumns.add([no, ts, step], n);
      if (withStore) pushGrid(no, ts, step, n);
    },
  );
  const r = rowColumns.done();
  const g = gridColumns.done();
  // Without the store now (a model on the worker threads, which build their own from the columns), the
  // same rows from the columns when a model on this thread first asks (a block kept across models).
  let store = withStore ? HistoryStore.fromRows(rows, grid) : undefined;
  const storeOf = () => {
    if (store) return store;
    pushRows(r.no, r.ts, r.av, r.value, r.no.length);
    pushGrid(g.no, g.ts, g.step, g.no.length);
    store = HistoryStore.fromRows(rows, grid);
    return store;
  };
  const served = origins.filter((o) => stored.has(Number(o.series_no)));
  const tasks: ForecastTask[] = served.map((o) => ({
    series_id: o.series_id,
    origin: Number(o.origin),
    horizon_steps: o.horizon_steps,
    origin_index: Number(o.origin_index),
    ...(o.lookback_steps === null ? {} : { lookback_steps: o.lookback_steps }),
  }));
  return {
    origins,
    served,
    tasks,
    taskSeriesNo: served.map((o) => Number(o.series_no)),
    get store() {
      return storeOf();
    },
    columns: {
      rowNo: r.no,
      rowTs: r.ts,
      rowAv: r.av,
      rowValue: r.value,
      gridNo: g.no,
      gridTs: g.ts,
      gridStep: g.step,
    },
  };
}

/** origin as the split has it, epoch microseconds (baseline_forecasts.sql writes it as a TIMESTAMPTZ). */
async function appendOrigins(duck: Duck, origins: readonly OriginRow[]): Promise<void> {
  await duck.appendColumns(
    'forecast_origins',
    [INTEGER, VARCHAR, BIGINT],
    [origins.map((o) => o.origin_no), origins.map((o) => o.series_id), origins.map((o) => BigInt(o.origin))],
  );
}

/**
 * The parallel run's rows (in task order, `taskOfRow` each row's task) given their origin_no, with the
 * check forecastModel makes: every origin gets its full path.
 */
function originNumbers(
  block: LoadedBlock,
  taskOfRow: Int32Array,
  columns: ForecastColumns,
  name: FittedBaselineModel,
  manifestPath: string,
): ForecastColumns {
  const { origins, served } = block;
  const originNo: number[] = new Array(taskOfRow.length);
  let p = 0;
  let t = 0;
  for (const o of origins) {
    let n = 0;
    if (t < served.length && served[t] === o) {
      while (p < taskOfRow.length && taskOfRow[p] === t) {
        originNo[p++] = o.origin_no;
        n++;
      }
      t++;
    }
    if (n !== o.horizon_steps) throw noHistory(manifestPath, o, name);
  }
  return { ...columns, originNo };
}

function noHistory(manifestPath: string, o: OriginRow, name: string): InputError {
  return new InputError(
    'BASELINES_NO_HISTORY',
    `${manifestPath}: origin ${microsToIso(Number(o.origin))} of ${o.series_id} has no history public at the origin in the split (train/observations, inputs), so ${name} has no forecast; the split's origins and inputs disagree — remake the split`,
    { context: { series_id: o.series_id, value: microsToIso(Number(o.origin)) } },
  );
}

/**
 * One baseline over a block's origins, through the look-ahead guard; every origin must get its full path.
 * The rows in task order (origin_no, then step); a point baseline has no quantile columns.
 */
function forecastModel(
  block: LoadedBlock,
  name: (typeof BASELINE_MODELS)[number],
  forecasters: BaselineForecasters,
  manifestPath: string,
): ForecastColumns {
  const { origins, served, tasks, store } = block;
  const out =
    name === 'arima' || name === 'garch'
      ? runPathForecaster(store, tasks, withPointMass(forecasters[name]))
      : runForecaster(store, tasks, forecasters[name]);
  // Each forecaster emits each task's path in task order: count each origin's steps walking both lists.
  let p = 0;
  let t = 0;
  const originNo: number[] = new Array(out.length);
  for (const o of origins) {
    let n = 0;
    if (t < tasks.length && served[t] === o) {
      const task = tasks[t];
      while (p < out.length && out[p].series_id === task.series_id && out[p].origin === task.origin) {
        originNo[p++] = o.origin_no;
        n++;
      }
      t++;
    }
    if (n !== o.horizon_steps) throw noHistory(manifestPath, o, name);
  }
  const names = BASELINE_QUANTILE_LEVELS.map(quantileColumnName);
  return {
    originNo,
    step: out.map((r) => r.step),
    value: out.map((r) => r.value),
    quantiles:
      name === 'arima' || name === 'garch'
        ? names.map((q) => (out as ReturnType<typeof runPathForecaster>).map((r) => r.quantiles[q]))
        : null,
  };
}

/** Progress on stderr: a first line with the totals, one per block at most every few seconds, a last one. */
function progressLog(options: BaselineForecastsOptions, series: number, origins: number, blocks: number) {
  const log = options.log ?? (() => {});
  const every = (options.progressSeconds ?? 5) * 1000;
  let last = performance.now();
  const at = elapsedStamp;
  const fmt = (n: number) => n.toLocaleString('en-US');
  log(`${at()} ${fmt(series)} series, ${fmt(origins)} origins, in ${fmt(blocks)} block(s) of series`);
  return {
    block(model: string, done: number, rows: number) {
      const now = performance.now();
      if (now - last < every && done < series) return;
      last = now;
      log(`${at()} ${model}: ${fmt(done)}/${fmt(series)} series; ${fmt(rows)} forecast rows in all`);
    },
    writing(rows: number, parts: number) {
      log(
        `${at()} joining ${fmt(parts)} sorted part(s), ${fmt(rows)} forecast rows, into one Parquet file (model, series_id, origin, step)`,
      );
    },
    finished(rows: number) {
      log(`${at()} wrote ${fmt(rows)} forecast rows`);
    },
  };
}
