import { BASELINE_QUANTILE_LEVELS, type FittedBaselineModel } from '@asof/baselines';
import type { BaselineChunk } from './baseline-chunk.ts';
import type { BaselinesPool } from './baselines-pool.ts';
import type { ForecastColumns } from './forecast-parts.ts';
import type { GuardCounts } from './history-store.ts';
import type { ForecastTask } from './run-forecaster.ts';

/** A block's served history and grid as loaded, flat, ordered by series_no (then ts, av / ts, step). */
export interface BlockColumns {
  rowNo: Float64Array;
  rowTs: Float64Array;
  rowAv: Float64Array;
  /** NaN = a withdrawal. */
  rowValue: Float64Array;
  gridNo: Float64Array;
  gridTs: Float64Array;
  gridStep: Float64Array;
}

/** What chunksOfBlock needs of a loaded block: its tasks in order, each with its series_no. */
export interface ChunkableBlock {
  tasks: readonly ForecastTask[];
  taskSeriesNo: readonly number[];
  columns: BlockColumns;
}

/** Chunks per thread and block: enough that the last chunks of a block keep every thread busy. */
const CHUNKS_PER_THREAD = 8;

/** [start, end) of each series_no's run in a column sorted by series_no. */
function runsOf(no: Float64Array): Map<number, [number, number]> {
  const runs = new Map<number, [number, number]>();
  let i = 0;
  while (i < no.length) {
    let j = i + 1;
    while (j < no.length && no[j] === no[i]) j++;
    runs.set(no[i], [i, j]);
    i = j;
  }
  return runs;
}

/**
 * A block's tasks cut into chunks of whole consecutive series, of about equal numbers of tasks, each
 * carrying its series' history and grid; chunk k's tasks are the block's tasks from `taskStart[k]` on.
 */
export function chunksOfBlock(
  block: ChunkableBlock,
  threads: number,
): { chunks: BaselineChunk[]; taskStart: number[] } {
  const { tasks, taskSeriesNo, columns: c } = block;
  const rowRuns = runsOf(c.rowNo);
  const gridRuns = runsOf(c.gridNo);
  const target = tasks.length / (threads * CHUNKS_PER_THREAD);
  const chunks: BaselineChunk[] = [];
  const taskStart: number[] = [];
  let t = 0;
  while (t < tasks.length) {
    const first = t;
    // Whole series until the chunk reaches its share of tasks.
    while (t < tasks.length && (t === first || t - first < target || taskSeriesNo[t] === taskSeriesNo[t - 1]))
      t++;
    taskStart.push(first);
    chunks.push(chunkOf(block, first, t, rowRuns, gridRuns));
  }
  return { chunks, taskStart };
}

function chunkOf(
  block: ChunkableBlock,
  first: number,
  end: number,
  rowRuns: Map<number, [number, number]>,
  gridRuns: Map<number, [number, number]>,
): BaselineChunk {
  const { tasks, taskSeriesNo, columns: c } = block;
  const seriesNos: number[] = [];
  const seriesIds: string[] = [];
  for (let t = first; t < end; t++) {
    if (t === first || taskSeriesNo[t] !== taskSeriesNo[t - 1]) {
      seriesNos.push(taskSeriesNo[t]);
      seriesIds.push(tasks[t].series_id);
    }
  }
  const span = (runs: Map<number, [number, number]>) =>
    seriesNos.reduce((n, no) => n + (runs.get(no) ? runs.get(no)![1] - runs.get(no)![0] : 0), 0);
  const nRows = span(rowRuns);
  const nGrid = span(gridRuns);
  const chunk: BaselineChunk = {
    seriesIds,
    rowSeries: new Int32Array(nRows),
    rowTs: new Float64Array(nRows),
    rowAv: new Float64Array(nRows),
    rowValue: new Float64Array(nRows),
    gridSeries: new Int32Array(nGrid),
    gridTs: new Float64Array(nGrid),
    gridStep: new Float64Array(nGrid),
    taskSeries: new Int32Array(end - first),
    taskOrigin: new Float64Array(end - first),
    taskHorizon: new Int32Array(end - first),
    taskOriginIndex: new Float64Array(end - first),
    taskLookback: new Float64Array(end - first),
  };
  let r = 0;
  let g = 0;
  for (const [k, no] of seriesNos.entries()) {
    const [rs, re] = rowRuns.get(no) ?? [0, 0];
    chunk.rowSeries.fill(k, r, r + re - rs);
    chunk.rowTs.set(c.rowTs.subarray(rs, re), r);
    chunk.rowAv.set(c.rowAv.subarray(rs, re), r);
    chunk.rowValue.set(c.rowValue.subarray(rs, re), r);
    r += re - rs;
    const [gs, ge] = gridRuns.get(no) ?? [0, 0];
    chunk.gridSeries.fill(k, g, g + ge - gs);
    chunk.gridTs.set(c.gridTs.subarray(gs, ge), g);
    chunk.gridStep.set(c.gridStep.subarray(gs, ge), g);
    g += ge - gs;
  }
  let k = -1;
  for (let t = first; t < end; t++) {
    if (t === first || taskSeriesNo[t] !== taskSeriesNo[t - 1]) k++;
    const task = tasks[t];
    const i = t - first;
    chunk.taskSeries[i] = k;
    chunk.taskOrigin[i] = task.origin;
    chunk.taskHorizon[i] = task.horizon_steps;
    chunk.taskOriginIndex[i] = task.origin_index ?? Number.NaN;
    chunk.taskLookback[i] = task.lookback_steps ?? Number.NaN;
  }
  return chunk;
}

/**
 * A fitted baseline over a block's chunks on the pool, the answers joined in chunk order: the block's
 * forecast rows in task order (originNo not yet set), each row's task, and the guard counts of all chunks.
 */
export async function forecastInParallel(
  pool: BaselinesPool,
  { chunks, taskStart }: { chunks: BaselineChunk[]; taskStart: number[] },
  model: FittedBaselineModel,
  refitEvery: number,
): Promise<{ taskOfRow: Int32Array; columns: ForecastColumns; guard: GuardCounts }> {
  const answers = await Promise.all(chunks.map((chunk) => pool.run(chunk, model, refitEvery)));
  const n = answers.reduce((s, a) => s + a.task.length, 0);
  const K = BASELINE_QUANTILE_LEVELS.length;
  const taskOfRow = new Int32Array(n);
  const step: number[] = new Array(n);
  const value: number[] = new Array(n);
  const quantiles: number[][] = Array.from({ length: K }, () => new Array(n));
  const guard: GuardCounts = { requests: 0, rows: 0 };
  let p = 0;
  for (const [c, a] of answers.entries()) {
    for (let i = 0; i < a.task.length; i++, p++) {
      taskOfRow[p] = taskStart[c] + a.task[i];
      step[p] = a.step[i];
      value[p] = a.value[i];
      for (let j = 0; j < K; j++) quantiles[j][p] = a.quantiles[i * K + j];
    }
    guard.requests += a.guard.requests;
    guard.rows += a.guard.rows;
  }
  return { taskOfRow, columns: { originNo: [], step, value, quantiles }, guard };
}
