import { join } from 'node:path';
import { MAX_HISTORY_TAIL } from '@asof/baselines';
import { InputError, type Manifest } from '@asof/schema';
import type { TargetColumns } from './build-evaluation-panel.ts';
import { type CompactInputs, compactInputTails, compactTargets } from './expand-compact-split.ts';
import { RANDOM_WALK_SIGMA_RETURNS } from './random-walk-sigma.ts';
import { readParquetColumns } from './read-parquet-columns.ts';
import { type OriginRow, SCORING_WINDOWS, type ScoringWindow, type TaskRow } from './score-types.ts';
import { type HistoryColumns, type WholeHistoryQuery, wholeHistoryAt } from './whole-history-at.ts';

export interface SplitData {
  /** Null when the split has no tasks table (they then come from the parent universe's tasks). */
  tasks: TaskRow[] | null;
  origins: OriginRow[];
  targets: TargetColumns;
}

/**
 * Where a manifest's table files are read from: its folder (listed paths resolved against it), or, for a
 * manifest opened with openVerifiedManifest, a function giving each table's verified read paths (the
 * descriptors that were hashed, docs/decisions/0010).
 */
export type TableFiles = string | ((table: string) => string[]);

/** Reads a verified split into the scorer's interfaces; swap it when the split's files differ. */
export type SplitLoader = (manifest: Manifest, files: TableFiles) => Promise<SplitData>;

function outputsOf(manifest: Manifest, table: string): string[] {
  return manifest.outputs.filter((o) => o.table === table).map((o) => o.path);
}

async function readTable(
  manifest: Manifest,
  dir: TableFiles,
  table: string,
  columns: readonly string[],
  required: boolean,
): Promise<Record<string, unknown[]> | null> {
  const paths = outputsOf(manifest, table);
  if (paths.length === 0) {
    if (!required) return null;
    throw new InputError(
      'SPLIT_TABLE_MISSING',
      `manifest ${manifest.name} lists no '${table}' output (tables: ${[...new Set(manifest.outputs.map((o) => o.table))].join(', ')}); score a split made by 'asof split'`,
      { context: { table } },
    );
  }
  const out: Record<string, unknown[]> = Object.fromEntries(columns.map((c) => [c, []]));
  const files = typeof dir === 'string' ? paths.map((p) => join(dir, p)) : dir(table);
  for (const file of files) {
    const { rows, columns: cols } = await readParquetColumns(file, columns);
    for (const c of columns) {
      const src = cols[c];
      const dst = out[c];
      if (src) for (let i = 0; i < rows; i++) dst.push(src[i]);
      else for (let i = 0; i < rows; i++) dst.push(undefined);
    }
  }
  return out;
}

export function instantText(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  // Raw INT64 timestamps are epoch microseconds (the repo's convention).
  if (typeof v === 'bigint') return new Date(Number(v / 1000n)).toISOString();
  return String(v);
}

/** An instant column value as epoch ms (Date, raw INT64 epoch µs, or ISO text). */
function instantMs(v: unknown): number {
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'bigint') return Number(v / 1000n);
  return Date.parse(String(v));
}

function num(v: unknown): number {
  return typeof v === 'bigint' ? Number(v) : v === null || v === undefined ? Number.NaN : Number(v);
}

function nullableNum(v: unknown): number | null {
  return v === null || v === undefined ? null : num(v);
}

/** An origins row's `window` (T1/T2/T3; null: the split has no model cutoff). */
function windowOf(v: unknown, row: number): ScoringWindow | null {
  if (v === null || v === undefined) return null;
  const text = String(v);
  if ((SCORING_WINDOWS as readonly string[]).includes(text)) return text as ScoringWindow;
  throw new InputError(
    'SPLIT_BAD_WINDOW',
    `split origins row ${row + 1}: window ${JSON.stringify(text)} is not one of ${SCORING_WINDOWS.join(', ')}; remake the split with 'asof split --model-cutoff … --run-date …'`,
    { context: { row: row + 1, field: 'window', value: text } },
  );
}

function nullableText(v: unknown): string | null {
  return v === null || v === undefined ? null : String(v);
}

/**
 * Grid steps (the split's step_index, series_grid.sql) of the served timestamps of each series: the inputs'
 * step_index column (every row of a timestamp carries the same step), and the training snapshot's, which
 * carries none: train/series.parquet gives the steps of its first and last timestamps (first_step_index,
 * last_step_index), and when they are as far apart as the snapshot has rows (no hole on the grid) every
 * row's step is the first's plus its rank. Otherwise only those two are placed.
 */
class SeriesGridSteps {
  private readonly steps = new Map<string, Map<number, number>>();
  private readonly train = new Map<string, { ts: Float64Array; first: number; consecutive: boolean }>();
  /** False when some input row has no step_index (a split written before inputs carried it). */
  complete = true;

  add(seriesId: string, tsMs: number, step: unknown): void {
    if (step === null || step === undefined) {
      this.complete = false;
      return;
    }
    let m = this.steps.get(seriesId);
    if (!m) {
      m = new Map();
      this.steps.set(seriesId, m);
    }
    m.set(tsMs, num(step));
  }

  /** The training snapshot's timestamps of a series (sorted, distinct) and its steps' ends. */
  placeTrain(seriesId: string, ts: Float64Array, firstStep: number, lastStep: number): void {
    if (ts.length === 0 || !Number.isFinite(firstStep) || !Number.isFinite(lastStep)) return;
    const consecutive = lastStep - firstStep + 1 === ts.length;
    this.train.set(seriesId, { ts, first: firstStep, consecutive });
    if (!consecutive) {
      this.add(seriesId, ts[0], firstStep);
      this.add(seriesId, ts[ts.length - 1], lastStep);
    }
  }

  /** The grid step of a served timestamp, NaN when the split does not give it. */
  stepOf(seriesId: string, tsMs: number): number {
    const known = this.steps.get(seriesId)?.get(tsMs);
    if (known !== undefined) return known;
    const t = this.train.get(seriesId);
    if (!t?.consecutive) return Number.NaN;
    let lo = 0;
    let hi = t.ts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (t.ts[mid] < tsMs) lo = mid + 1;
      else hi = mid;
    }
    return lo < t.ts.length && t.ts[lo] === tsMs ? t.first + lo : Number.NaN;
  }
}

/**
 * history_tail_back of one origin: origin_index − each tail timestamp's grid step. Undefined (the tail is
 * then consecutive steps ending at the origin's own step) when the split gives no step numbers and the
 * last input is the origin's own timestamp; without step numbers, a tail that ends before the origin
 * (a series released late) cannot be placed on the grid, and the baselines would be shifted by the lag.
 */
function tailStepsBack(
  grid: SeriesGridSteps,
  seriesId: string,
  ts: readonly number[],
  originMs: number,
  originIndex: number | null,
  row: number,
): number[] | undefined {
  const where = `${seriesId} @ ${new Date(originMs).toISOString()}`;
  if (grid.complete && originIndex !== null) {
    const back = ts.map((t) => originIndex - grid.stepOf(seriesId, t));
    const bad = back.findIndex((b) => !(b >= 0));
    if (bad < 0) return back;
    throw new InputError(
      'SPLIT_BAD_STEP_INDEX',
      `split origins row ${row + 1}: ${where} (origin_index ${originIndex}) has an input at ${new Date(ts[bad]).toISOString()} with grid step ${grid.stepOf(seriesId, ts[bad])}, not on the grid at or before the origin's step; the split's origins and inputs disagree — remake the split`,
      { context: { row: row + 1, value: where } },
    );
  }
  if (ts.length === 0 || ts[ts.length - 1] === originMs) return undefined;
  throw new InputError(
    'SPLIT_NO_STEP_INDEX',
    `split origins row ${row + 1}: ${where} has inputs only up to ${new Date(ts[ts.length - 1]).toISOString()} and the split gives no grid step (inputs step_index, origins origin_index) to place them; remake the split with this version of 'asof split'`,
    { context: { row: row + 1, value: where } },
  );
}

/** The build's tasks table (TaskRow columns) from a manifest's `tasks` output(s). */
export async function readTasksTable(
  manifest: Manifest,
  dir: TableFiles,
  required = true,
): Promise<TaskRow[] | null> {
  const cols = [
    'series_id',
    'aspect',
    'metric',
    'p',
    'h',
    'p_steps',
    'h_steps',
    'scope',
    'category',
    'detail_category',
    'frequency',
  ] as const;
  const t = await readTable(manifest, dir, 'tasks', cols, required);
  if (t === null) return null;
  return t.series_id.map((_, i) => ({
    series_id: String(t.series_id[i]),
    aspect: String(t.aspect[i]),
    metric: String(t.metric[i]),
    p: nullableText(t.p[i]),
    h: nullableText(t.h[i]),
    p_steps: nullableNum(t.p_steps[i]),
    h_steps: nullableNum(t.h_steps[i]),
    scope: String(t.scope[i]),
    category: String(t.category[i]),
    detail_category: String(t.detail_category[i]),
    frequency: String(t.frequency[i]),
  }));
}

/**
 * Everything the split serves of each series with an origin, as observation rows: the training snapshot,
 * every origin's inputs (of the compact layout, the rows some origin is served, as the per-origin layout
 * carries them) and the split's withdrawals (value NaN: the served rows carry no NULLs, so without them a
 * value the inputs already leave out would still count at later origins). The training snapshot is placed
 * on the grid here (SeriesGridSteps.placeTrain, from train_series' first_step_index and last_step_index).
 */
async function servedHistory(
  manifest: Manifest,
  dir: TableFiles,
  origins: readonly OriginRow[],
  inputs: Record<string, unknown[]> | null,
  compactRows: CompactInputs | null,
  servedCompact: Uint8Array | null,
  grid: SeriesGridSteps,
): Promise<Map<string, HistoryColumns>> {
  const withdrawals = await readTable(
    manifest,
    dir,
    'withdrawals',
    ['series_id', 'timestamp', 'available_at'],
    false,
  );
  const train = await readTable(
    manifest,
    dir,
    'train_observations',
    ['series_id', 'timestamp', 'available_at', 'value'],
    false,
  );
  const trainSeries = await readTable(
    manifest,
    dir,
    'train_series',
    ['series_id', 'first_step_index', 'last_step_index'],
    false,
  );
  const wanted = new Set(origins.map((r) => r.series_id));
  const served = new Map<string, HistoryColumns>();
  const add = (sid: string, ts: number, av: number, value: number) => {
    let h = served.get(sid);
    if (!h) {
      h = { ts: [], av: [], value: [] };
      served.set(sid, h);
    }
    h.ts.push(ts);
    h.av.push(av);
    h.value.push(value);
  };
  const trainTs = new Map<string, number[]>();
  if (train) {
    for (let i = 0; i < train.series_id.length; i++) {
      const sid = String(train.series_id[i]);
      if (!wanted.has(sid)) continue;
      const ts = instantMs(train.timestamp[i]);
      add(sid, ts, instantMs(train.available_at[i]), num(train.value[i]));
      let list = trainTs.get(sid);
      if (!list) {
        list = [];
        trainTs.set(sid, list);
      }
      list.push(ts);
    }
  }
  if (inputs) {
    for (let i = 0; i < inputs.series_id.length; i++) {
      const sid = String(inputs.series_id[i]);
      if (wanted.has(sid))
        add(sid, instantMs(inputs.timestamp[i]), instantMs(inputs.available_at[i]), num(inputs.value[i]));
    }
  }
  if (compactRows && servedCompact) {
    for (let i = 0; i < compactRows.series_id.length; i++) {
      const sid = compactRows.series_id[i];
      if (servedCompact[i] && wanted.has(sid))
        add(sid, compactRows.ts[i], compactRows.av[i], compactRows.value[i]);
    }
  }
  if (withdrawals) {
    for (let i = 0; i < withdrawals.series_id.length; i++) {
      const sid = String(withdrawals.series_id[i]);
      if (wanted.has(sid))
        add(sid, instantMs(withdrawals.timestamp[i]), instantMs(withdrawals.available_at[i]), Number.NaN);
    }
  }
  if (trainSeries) {
    for (let i = 0; i < trainSeries.series_id.length; i++) {
      const sid = String(trainSeries.series_id[i]);
      const ts = trainTs.get(sid);
      if (!ts) continue;
      // The snapshot holds one row per timestamp (train_observations.sql's grain).
      grid.placeTrain(
        sid,
        Float64Array.from(ts).sort(),
        nullableNum(trainSeries.first_step_index[i]) ?? Number.NaN,
        nullableNum(trainSeries.last_step_index[i]) ?? Number.NaN,
      );
    }
  }
  return served;
}

/**
 * history_first/_first_back (drift's y_1 and its grid position) and history_before/_before_back (the served
 * history before the tail that the random walk's volatility window reaches: RANDOM_WALK_SIGMA_RETURNS of
 * the origin's frequency, less the returns its tail holds) of every origin placed on the grid (origin_index
 * and history_tail_back known), from the whole history served as of it (wholeHistoryAt).
 */
function attachWholeHistory(
  origins: OriginRow[],
  at: { originMs: readonly number[]; tailStart: Float64Array; frequency: readonly unknown[] },
  served: Map<string, HistoryColumns>,
  grid: SeriesGridSteps,
): void {
  const bySeries = new Map<string, number[]>();
  origins.forEach((r, i) => {
    if (r.origin_index === undefined || !r.history_tail_back?.length) return;
    let list = bySeries.get(r.series_id);
    if (!list) {
      list = [];
      bySeries.set(r.series_id, list);
    }
    list.push(i);
  });
  for (const [sid, idx] of bySeries) {
    const rows = served.get(sid);
    if (!rows) continue;
    const queries: WholeHistoryQuery[] = idx.map((i) => {
      const back = origins[i].history_tail_back!;
      let tailReturns = 0;
      for (let k = 1; k < back.length; k++) if (back[k - 1] - back[k] === 1) tailReturns++;
      const window = RANDOM_WALK_SIGMA_RETURNS[nullableText(at.frequency[i]) ?? ''] ?? 0;
      return {
        origin: at.originMs[i],
        tailStart: at.tailStart[i],
        tailStartStep: origins[i].origin_index! - back[0],
        returns: window - tailReturns,
      };
    });
    const found = wholeHistoryAt(rows, (ts) => grid.stepOf(sid, ts), queries);
    idx.forEach((i, k) => {
      const row = origins[i];
      const f = found[k];
      const originIndex = row.origin_index!;
      if (Number.isFinite(f.firstStep)) {
        row.history_first = f.first;
        row.history_first_back = originIndex - f.firstStep;
      }
      if (f.before.length) {
        row.history_before = f.before;
        row.history_before_back = f.beforeSteps.map((step) => originIndex - step);
      }
    });
  }
}

/**
 * Default SplitLoader for `asof split` output, either layout: `origins` (series_id, origin, horizon_steps or
 * horizon, origin_index, lookback_start, frequency, and origin_label and window when the split carries them),
 * `inputs` (series_id, origin, timestamp, value, step_index: the as-of history at each origin, whose last value is
 * y_o and whose last MAX_HISTORY_TAIL values become history_tail, with history_tail_back = origin_index −
 * step_index, so the baselines count the grid from the origin's own step even when it is not public yet),
 * `targets` (series_id, origin, step, value) and, when the split carries one, `tasks`. The compact layout's
 * `input_rows` and `target_rows` are expanded to the same per-origin view (expand-compact-split.ts). An
 * origin without inputs is an error: the baselines need y_o. The whole history served as of each origin
 * (history_first and history_first_back for the drift baseline; history_before and history_before_back for
 * the random walk's volatility window) is the as-of view at the origin of everything the split serves:
 * `train_observations`, every origin's inputs and the split's `withdrawals` (rows with available_at <= the
 * origin only, so no look-ahead), placed on the grid by step (SeriesGridSteps, with `train_series`'
 * first_step_index and last_step_index for the training snapshot).
 */
export const readSplitTables: SplitLoader = async (manifest, dir) => {
  const o = (await readTable(
    manifest,
    dir,
    'origins',
    [
      'series_id',
      'origin',
      'origin_label',
      'horizon_steps',
      'horizon',
      'origin_index',
      'last_value',
      'lookback_start',
      'window',
      'frequency',
    ],
    true,
  ))!;
  const compact = outputsOf(manifest, 'input_rows').length > 0;
  const inputs = compact
    ? null
    : await readTable(
        manifest,
        dir,
        'inputs',
        ['series_id', 'origin', 'timestamp', 'available_at', 'value', 'step_index'],
        false,
      );
  const inputRows = compact
    ? await readTable(
        manifest,
        dir,
        'input_rows',
        ['series_id', 'timestamp', 'available_at', 'superseded_at', 'value', 'step_index'],
        true,
      )
    : null;
  const history = new Map<string, { ts: number[]; values: number[] }>();
  const grid = new SeriesGridSteps();
  if (inputs) {
    for (let i = 0; i < inputs.series_id.length; i++) {
      const key = `${inputs.series_id[i]}|${instantText(inputs.origin[i])}`;
      let h = history.get(key);
      if (!h) {
        h = { ts: [], values: [] };
        history.set(key, h);
      }
      const ts = inputs.timestamp[i];
      const ms = ts instanceof Date ? ts.getTime() : Date.parse(instantText(ts));
      h.ts.push(ms);
      h.values.push(num(inputs.value[i]));
      grid.add(String(inputs.series_id[i]), ms, inputs.step_index[i]);
    }
  }
  let compactRows: CompactInputs | null = null;
  let servedCompact: Uint8Array | null = null;
  if (inputRows) {
    compactRows = {
      series_id: inputRows.series_id.map(String),
      ts: inputRows.timestamp.map(instantMs),
      av: inputRows.available_at.map(instantMs),
      sup: inputRows.superseded_at.map((v) => (v === null || v === undefined ? Number.NaN : instantMs(v))),
      value: inputRows.value.map(num),
    };
    for (let i = 0; i < compactRows.series_id.length; i++)
      grid.add(compactRows.series_id[i], compactRows.ts[i], inputRows.step_index[i]);
    const { tails, served: compactServed } = compactInputTails(
      compactRows,
      o.series_id.map((sid, i) => ({
        series_id: String(sid),
        origin: instantMs(o.origin[i]),
        lookbackStart:
          o.lookback_start[i] === null || o.lookback_start[i] === undefined
            ? Number.NaN
            : instantMs(o.lookback_start[i]),
      })),
      MAX_HISTORY_TAIL,
    );
    tails.forEach((tail, i) => {
      if (tail) history.set(`${o.series_id[i]}|${instantText(o.origin[i])}`, tail);
    });
    servedCompact = compactServed;
  }
  const originMs = o.origin.map(instantMs);
  /** Each origin's first tail timestamp (epoch ms): the whole history's part before it is σ̂'s extension. */
  const tailStart = new Float64Array(o.series_id.length).fill(Number.NaN);
  const origins: OriginRow[] = o.series_id.map((sid, i) => {
    const series_id = String(sid);
    const origin = instantText(o.origin[i]);
    const horizon = num(o.horizon_steps[i] ?? o.horizon[i]);
    const h = history.get(`${series_id}|${origin}`);
    let tail: number[] | undefined;
    let tailBack: number[] | undefined;
    if (h) {
      const order = h.ts
        .map((_, k) => k)
        .sort((a, b) => h.ts[a] - h.ts[b])
        .slice(-MAX_HISTORY_TAIL);
      tail = order.map((k) => h.values[k]);
      if (order.length) tailStart[i] = h.ts[order[0]];
      tailBack = tailStepsBack(
        grid,
        series_id,
        order.map((k) => h.ts[k]),
        originMs[i],
        nullableNum(o.origin_index[i]),
        i,
      );
    }
    const last = tail?.length ? tail[tail.length - 1] : num(o.last_value[i]);
    if (!Number.isFinite(last)) {
      throw new InputError(
        'SPLIT_NO_ORIGIN_VALUE',
        `split origins row ${i + 1}: ${series_id} @ ${origin} has no input history (no inputs rows, no last_value); the baselines need y_o`,
        { context: { row: i + 1, value: `${series_id} @ ${origin}` } },
      );
    }
    const row: OriginRow = { series_id, origin, horizon, last_value: last, history_tail: tail };
    // origin_label (splits since periodLabel): what a forecast may give instead of the instant.
    const label = nullableText(o.origin_label[i]);
    if (label !== null) row.origin_label = label;
    if (tailBack) row.history_tail_back = tailBack;
    const idx = nullableNum(o.origin_index[i]);
    if (idx !== null) row.origin_index = idx;
    const window = windowOf(o.window[i], i);
    if (window) row.window = window;
    return row;
  });
  const hasAvailability =
    compactRows !== null || (inputs?.available_at.some((v) => v !== undefined && v !== null) ?? false);
  // Without availability instants on the inputs the view at each origin cannot be rebuilt: drift then
  // takes the history tail as the whole history, and σ̂ the tail alone.
  if (hasAvailability) {
    const served = await servedHistory(manifest, dir, origins, inputs, compactRows, servedCompact, grid);
    attachWholeHistory(origins, { originMs, tailStart, frequency: o.frequency }, served, grid);
  }
  let tasks: TaskRow[] | null = null;
  if (outputsOf(manifest, 'tasks').length) tasks = await readTasksTable(manifest, dir);
  if (outputsOf(manifest, 'target_rows').length) {
    const t = (await readTable(manifest, dir, 'target_rows', ['series_id', 'step_index', 'value'], true))!;
    const targets = compactTargets(
      { series_id: t.series_id.map(String), step_index: t.step_index.map(num), value: t.value.map(num) },
      origins.map((row, i) => ({ ...row, origin_index: num(o.origin_index[i]) })),
    );
    return { tasks, origins, targets };
  }
  const t = (await readTable(manifest, dir, 'targets', ['series_id', 'origin', 'step', 'value'], true))!;
  return {
    tasks,
    origins,
    targets: {
      series_id: t.series_id.map(String),
      origin: t.origin.map(instantText),
      step: t.step.map(num),
      value: t.value.map(num),
    },
  };
};
