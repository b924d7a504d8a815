import {
  BASELINE_QUANTILE_LEVELS,
  type FittedBaselineModel,
  pointMassPath,
  quantileColumnName,
} from '@asof/baselines';
import { arimaForecaster } from './arima-forecaster.ts';
import { garchForecaster } from './garch-forecaster.ts';
import { type GuardCounts, HistoryStore } from './history-store.ts';
import type { ForecastTask } from './run-forecaster.ts';
import { type PathForecaster, runPathForecaster } from './run-path-forecaster.ts';

/**
 * A run of whole series of one block with their served history, grid and tasks, as flat columns that go to
 * a worker thread without a structured clone of objects (the buffers are transferred). Series are whole:
 * ARIMA's and GARCH's refit schedules count a series' origins, and nothing else carries from one series
 * to the next, so a chunk's forecasts are the same numbers whichever thread computes them.
 */
export interface BaselineChunk {
  seriesIds: string[];
  /** History rows: the series' index in seriesIds, timestamp and available_at (µs), value (NaN = withdrawal). */
  rowSeries: Int32Array;
  rowTs: Float64Array;
  rowAv: Float64Array;
  rowValue: Float64Array;
  /** Grid steps: the series' index in seriesIds, timestamp (µs), step number. */
  gridSeries: Int32Array;
  gridTs: Float64Array;
  gridStep: Float64Array;
  /** Tasks in the split's order: the series' index, origin (µs), horizon, origin_index, lookback (NaN = none). */
  taskSeries: Int32Array;
  taskOrigin: Float64Array;
  taskHorizon: Int32Array;
  taskOriginIndex: Float64Array;
  taskLookback: Float64Array;
}

/** A chunk's forecast rows in task order: each row's task (index into the chunk's tasks), step, value, quantiles. */
export interface ChunkForecasts {
  task: Int32Array;
  step: Int32Array;
  value: Float64Array;
  /** Row-major, BASELINE_QUANTILE_LEVELS.length per row. */
  quantiles: Float64Array;
  guard: GuardCounts;
}

export function chunkBuffers(chunk: BaselineChunk): ArrayBuffer[] {
  return [
    chunk.rowSeries,
    chunk.rowTs,
    chunk.rowAv,
    chunk.rowValue,
    chunk.gridSeries,
    chunk.gridTs,
    chunk.gridStep,
    chunk.taskSeries,
    chunk.taskOrigin,
    chunk.taskHorizon,
    chunk.taskOriginIndex,
    chunk.taskLookback,
  ].map((a) => a.buffer as ArrayBuffer);
}

export function forecastBuffers(out: ChunkForecasts): ArrayBuffer[] {
  return [out.task, out.step, out.value, out.quantiles].map((a) => a.buffer as ArrayBuffer);
}

/**
 * ARIMA's or GARCH's path, or where it has no model (a window of one value) the point mass at y_o
 * (pointMassPath), as the scorer has it; nothing only where no history is public at the origin.
 */
export function withPointMass(forecaster: PathForecaster): PathForecaster {
  return (task, history) => {
    const path = forecaster(task, history);
    if (path) return path;
    const last = history.historyAt(task.series_id, history.origin, 1);
    if (last.length === 0) return null;
    return pointMassPath(last[last.length - 1].value, task.horizon_steps, BASELINE_QUANTILE_LEVELS);
  };
}

/** The default forecaster of a fitted baseline, new for each run (it holds the run's refit cache). */
export function fittedForecaster(model: FittedBaselineModel, refitEvery: number): PathForecaster {
  return model === 'arima' ? arimaForecaster({ refitEvery }) : garchForecaster({ refitEvery });
}

/**
 * One fitted baseline over a chunk, through the look-ahead guard of a store holding only the chunk's
 * series: the code path of the in-process run (runPathForecaster, withPointMass), on the same rows.
 */
export function forecastChunk(
  chunk: BaselineChunk,
  model: FittedBaselineModel,
  refitEvery: number,
): ChunkForecasts {
  const ids = chunk.seriesIds;
  const rows: { series_id: string; ts: number; av: number; value: number | null }[] = [];
  for (let i = 0; i < chunk.rowSeries.length; i++) {
    const v = chunk.rowValue[i];
    rows.push({
      series_id: ids[chunk.rowSeries[i]],
      ts: chunk.rowTs[i],
      av: chunk.rowAv[i],
      value: Number.isNaN(v) ? null : v,
    });
  }
  const grid: { series_id: string; ts: number; step: number }[] = [];
  for (let i = 0; i < chunk.gridSeries.length; i++) {
    grid.push({ series_id: ids[chunk.gridSeries[i]], ts: chunk.gridTs[i], step: chunk.gridStep[i] });
  }
  const store = HistoryStore.fromRows(rows, grid);
  const tasks: ForecastTask[] = Array.from(chunk.taskSeries, (s, i) => {
    const lookback = chunk.taskLookback[i];
    return {
      series_id: ids[s],
      origin: chunk.taskOrigin[i],
      horizon_steps: chunk.taskHorizon[i],
      origin_index: chunk.taskOriginIndex[i],
      ...(Number.isNaN(lookback) ? {} : { lookback_steps: lookback }),
    };
  });
  const out = runPathForecaster(store, tasks, withPointMass(fittedForecaster(model, refitEvery)));
  const names = BASELINE_QUANTILE_LEVELS.map(quantileColumnName);
  const K = names.length;
  const result: ChunkForecasts = {
    task: new Int32Array(out.length),
    step: new Int32Array(out.length),
    value: new Float64Array(out.length),
    quantiles: new Float64Array(out.length * K),
    guard: { ...store.guard },
  };
  // Rows come per task in task order: walk both lists to give each row its task.
  let t = 0;
  for (let r = 0; r < out.length; r++) {
    const row = out[r];
    while (tasks[t].series_id !== row.series_id || tasks[t].origin !== row.origin) t++;
    result.task[r] = t;
    result.step[r] = row.step;
    result.value[r] = row.value;
    for (let j = 0; j < K; j++) result.quantiles[r * K + j] = row.quantiles[names[j]];
  }
  return result;
}
