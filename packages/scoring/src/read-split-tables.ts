import { join } from 'node:path';
import { InputError, type Manifest } from '@asof/schema';
import type { TargetColumns } from './build-evaluation-panel.ts';
import { type CompactInputs, compactInputTails, compactTargets } from './expand-compact-split.ts';
import { readParquetColumns } from './read-parquet-columns.ts';
import { type OriginRow, SCORING_WINDOWS, type ScoringWindow, type TaskRow } from './score-types.ts';
import { type HistoryColumns, wholeHistoryAt } from './whole-history-at.ts';

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

/** History values kept per origin: enough for a 1y reference on daily series and any season length. */
export const MAX_HISTORY_TAIL = 400;

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
 * Grid steps (the split's step_index, series_grid.sql) of the input timestamps of each series, read from the
 * inputs' step_index column (every row of a timestamp carries the same step).
 */
class SeriesGridSteps {
  private readonly steps = new Map<string, Map<number, number>>();
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

  stepOf(seriesId: string, tsMs: number): number | undefined {
    return this.steps.get(seriesId)?.get(tsMs);
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
    const back = ts.map((t) => originIndex - (grid.stepOf(seriesId, t) ?? Number.NaN));
    const bad = back.findIndex((b) => !(b >= 0));
    if (bad < 0) return back;
    throw new InputError(
      'SPLIT_BAD_STEP_INDEX',
      `split origins row ${row + 1}: ${where} (origin_index ${originIndex}) has an input at ${new Date(ts[bad]).toISOString()} with grid step ${grid.stepOf(seriesId, ts[bad]) ?? 'none'}, not on the grid at or before the origin's step; the split's origins and inputs disagree — remake the split`,
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
 * Default SplitLoader for `asof split` output, either layout: `origins` (series_id, origin, horizon_steps or
 * horizon, origin_index, lookback_start, and origin_label and window when the split carries them), `inputs` (series_id, origin, timestamp, value, step_index: the
 * as-of history at each origin, whose last value is y_o and whose last MAX_HISTORY_TAIL values become
 * history_tail, with history_tail_back = origin_index − step_index, so the baselines count the grid from
 * the origin's own step even when it is not public yet),
 * `targets` (series_id, origin, step, value) and, when the split carries one, `tasks`. The compact layout's
 * `input_rows` and `target_rows` are expanded to the same per-origin view (expand-compact-split.ts). An
 * origin without inputs is an error: the baselines need y_o. The whole history known at each origin
 * (history_first, history_length, for the drift baseline) is the as-of view at the origin of everything
 * the split serves: `train_observations`, every origin's inputs and the split's `withdrawals` (rows with
 * available_at <= the origin only, so no look-ahead).
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
  const wanted = new Set(o.series_id.map(String));
  const served = new Map<string, HistoryColumns>();
  const addServedMs = (sid: string, ts: number, av: number, value: number) => {
    if (!wanted.has(sid)) return;
    let h = served.get(sid);
    if (!h) {
      h = { ts: [], av: [], value: [] };
      served.set(sid, h);
    }
    h.ts.push(ts);
    h.av.push(av);
    h.value.push(value);
  };
  const addServed = (sid: string, ts: unknown, av: unknown, value: unknown) =>
    addServedMs(sid, instantMs(ts), instantMs(av), num(value));
  const hasAvailability =
    compactRows !== null || (inputs?.available_at.some((v) => v !== undefined && v !== null) ?? false);
  // Without availability instants on the inputs the view at each origin cannot be rebuilt: drift then
  // takes the history tail as the whole history.
  if (train && hasAvailability) {
    for (let i = 0; i < train.series_id.length; i++)
      addServed(String(train.series_id[i]), train.timestamp[i], train.available_at[i], train.value[i]);
  }
  if (inputs && hasAvailability) {
    for (let i = 0; i < inputs.series_id.length; i++)
      addServed(String(inputs.series_id[i]), inputs.timestamp[i], inputs.available_at[i], inputs.value[i]);
  }
  if (compactRows && servedCompact) {
    // Only rows some origin is served, as the per-origin layout carries them.
    for (let i = 0; i < compactRows.series_id.length; i++) {
      if (servedCompact[i])
        addServedMs(compactRows.series_id[i], compactRows.ts[i], compactRows.av[i], compactRows.value[i]);
    }
  }
  // The split's withdrawals (value NaN here): the served rows carry no NULLs, so without them a value the
  // inputs already leave out would still count in the whole history at later origins.
  if (withdrawals && hasAvailability) {
    for (let i = 0; i < withdrawals.series_id.length; i++)
      addServed(
        String(withdrawals.series_id[i]),
        withdrawals.timestamp[i],
        withdrawals.available_at[i],
        null,
      );
  }
  const originsOf = new Map<string, number[]>();
  for (let i = 0; i < o.series_id.length; i++) {
    const sid = String(o.series_id[i]);
    let list = originsOf.get(sid);
    if (!list) {
      list = [];
      originsOf.set(sid, list);
    }
    list.push(i);
  }
  const wholeFirst = new Float64Array(o.series_id.length).fill(Number.NaN);
  const wholeLength = new Float64Array(o.series_id.length).fill(Number.NaN);
  for (const [sid, rows] of served) {
    const idx = originsOf.get(sid)!;
    const found = wholeHistoryAt(
      rows,
      idx.map((i) => instantMs(o.origin[i])),
    );
    idx.forEach((i, k) => {
      wholeFirst[i] = found[k].first;
      wholeLength[i] = found[k].length;
    });
  }
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
      tailBack = tailStepsBack(
        grid,
        series_id,
        order.map((k) => h.ts[k]),
        instantMs(o.origin[i]),
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
    if (Number.isFinite(wholeFirst[i]) && wholeLength[i] >= (tail?.length ?? 1)) {
      row.history_first = wholeFirst[i];
      row.history_length = wholeLength[i];
    }
    const idx = nullableNum(o.origin_index[i]);
    if (idx !== null) row.origin_index = idx;
    const window = windowOf(o.window[i], i);
    if (window) row.window = window;
    return row;
  });
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
