import type { Micros } from '@asof/calendar';
import type { Duck } from '@asof/duck';
import { InputError } from '@asof/schema';
import { type GuardCounts, HistoryStore } from '@asof/split';
import type { LabelCache } from './label-cache.ts';
import { type Pair, type RunSplit, readRunnerSql } from './open-run-split.ts';
import type { PredictTask } from './protocol.ts';

/** One `predict` line: series of one origin, and the pairs it asks for. */
export interface PredictBatch {
  batch: number;
  origin: Micros;
  originIso: string;
  pairs: Pair[];
  line: string;
  /** Input rows served in this batch. */
  rows: number;
}

export interface BatchLimits {
  /** At most this many (series, origin) pairs per batch (default 500). */
  batchPairs?: number;
  /** A batch closes once it holds this many input rows (default 200,000); a single larger pair is a batch alone. */
  batchRows?: number;
  /**
   * A window of whole origins holds about this many input rows (default 2,000,000): its served rows are one
   * HistoryStore, so memory is bounded by the window whatever the size of the split.
   */
  windowRows?: number;
}

/** Consecutive pairs [start, end) of whole origins whose inputs add up to about `limit` rows. */
function nextWindow(pairs: readonly Pair[], start: number, limit: number): number {
  let end = start;
  let rows = 0;
  while (end < pairs.length) {
    let k = end;
    let instant = 0;
    while (k < pairs.length && pairs[k].origin === pairs[end].origin) instant += pairs[k++].n_input_steps;
    if (end > start && rows + instant > limit) break;
    rows += instant;
    end = k;
  }
  return end;
}

/**
 * The predict batches in chronological order. Each window of origins gets a HistoryStore of the rows the
 * split serves in it (runner_window.sql) and every task's inputs come from `OriginView.historyAt` at its
 * origin, with the split's lookback — the look-ahead guard, counted in `guard`. The rows served must be
 * exactly the split's n_input_steps; anything else means the split's files disagree, and the run stops.
 */
export async function* predictBatches(
  duck: Duck,
  split: RunSplit,
  labels: LabelCache,
  guard: GuardCounts,
  manifestPath: string,
  limits: BatchLimits = {},
): AsyncGenerator<PredictBatch> {
  const pairs = split.pairs;
  const maxPairs = limits.batchPairs ?? 500;
  const maxRows = limits.batchRows ?? 200_000;
  const windowRows = limits.windowRows ?? 2_000_000;
  const windowSql = readRunnerSql('runner_window');
  let batch = 0;
  for (let start = 0; start < pairs.length; ) {
    const end = nextWindow(pairs, start, windowRows);
    const window = pairs.slice(start, end);
    const rows = await duck.all<{
      series_id: string;
      ts: bigint;
      av: bigint;
      value: number | null;
      step_index: number | null;
    }>(windowSql, { first: window[0].pair_no, last: window[window.length - 1].pair_no });
    // The grid: each served row's step (the split's step_index) and each origin's own (origin_index), so
    // `back` counts grid steps from the origin's period whatever the publication lag.
    const grid: { series_id: string; ts: bigint; step: number }[] = [];
    for (const r of rows)
      if (r.step_index !== null) grid.push({ series_id: r.series_id, ts: r.ts, step: r.step_index });
    for (const p of window) grid.push({ series_id: p.series_id, ts: BigInt(p.origin), step: p.origin_index });
    const store = HistoryStore.fromRows(rows, grid);
    rows.length = 0;
    for (let b = 0; b < window.length; ) {
      const origin = window[b].origin;
      let e = b;
      let served = 0;
      while (
        e < window.length &&
        window[e].origin === origin &&
        e - b < maxPairs &&
        (e === b || served < maxRows)
      ) {
        served += window[e++].n_input_steps;
      }
      const members = window.slice(b, e);
      const view = store.atOrigin(origin);
      const originIso = labels.isoOf(origin);
      const tasks: PredictTask[] = members.map((p) =>
        servedTask(p, store, view, labels, manifestPath, originIso),
      );
      batch++;
      yield {
        batch,
        origin,
        originIso,
        pairs: members,
        line: JSON.stringify({ type: 'predict', batch, origin: originIso, tasks }),
        rows: served,
      };
      b = e;
    }
    guard.requests += store.guard.requests;
    guard.rows += store.guard.rows;
    start = end;
  }
}

function servedTask(
  p: Pair,
  store: HistoryStore,
  view: ReturnType<HistoryStore['atOrigin']>,
  labels: LabelCache,
  manifestPath: string,
  originIso: string,
): PredictTask {
  const history = store.has(p.series_id)
    ? view.historyAt(p.series_id, p.origin, p.lookback_steps ?? undefined)
    : [];
  const n = history.length;
  const inputs = {
    labels: new Array<string>(n),
    timestamps: new Array<string>(n),
    available_at: new Array<string>(n),
    values: new Array<number>(n),
    back: new Array<number>(n),
  };
  for (let i = 0; i < n; i++) {
    const r = history[i];
    inputs.labels[i] = labels.labelOf(r.timestamp, p.frequency, p.fiscal);
    inputs.timestamps[i] = labels.isoOf(r.timestamp);
    inputs.available_at[i] = labels.isoOf(r.available_at);
    inputs.values[i] = r.value;
    inputs.back[i] = p.origin_index - view.gridStep(p.series_id, r.timestamp);
  }
  if (n !== p.n_input_steps || inputs.back.some((k) => !(k >= 0))) {
    throw new InputError(
      'RUN_SERVED_MISMATCH',
      `${manifestPath}: ${p.series_id} @ ${originIso}: the inputs public at the origin are ${n} row(s), but origins.parquet says n_input_steps ${p.n_input_steps}${n === p.n_input_steps ? ' (and a row is off the grid)' : ''}; the split's files disagree — remake the split with 'asof split'`,
      { context: { file: manifestPath, series_id: p.series_id, value: originIso } },
    );
  }
  return {
    series_id: p.series_id,
    frequency: p.frequency,
    origin_label: p.origin_label ?? labels.labelOf(p.origin, p.frequency, p.fiscal),
    horizon: p.horizon_steps,
    lookback: p.lookback_steps,
    inputs,
  };
}
