import { InputError } from '@asof/schema';
import { type EvaluationPanel, originKeyOf } from './build-evaluation-panel.ts';
import { parseInstant } from './parse-instant.ts';
import { positiveSeries } from './positive-series.ts';
import { BASELINE_MODELS, type ForecastRow } from './score-types.ts';

/** A forecasts file in columns, as read from CSV or Parquet (or converted from ForecastRow objects). */
export interface ForecastTable {
  /** File path (or a label) used in every error message. */
  source: string;
  model: ArrayLike<string>;
  series_id: ArrayLike<string>;
  origin: ArrayLike<string>;
  step: ArrayLike<number>;
  value: ArrayLike<number>;
  /** Quantile columns `q0.05`…, any order; level parsed from the name. */
  quantiles: { name: string; level: number; values: ArrayLike<number> }[];
  /** Sample columns `s1`…`sN`, in order. */
  samples: { name: string; values: ArrayLike<number> }[];
  /** File row number of data row 0 (CSV: 2, after the header; Parquet: 1). */
  firstRow: number;
  /** Exact file row (CSV: line) of each data row, when it differs from firstRow + i (quoted line breaks). */
  rowNumbers?: ArrayLike<number>;
}

/** One model's forecasts aligned to `panel.actual` (same index = same series, origin, step). */
export interface ModelForecasts {
  model: string;
  baseline: boolean;
  point: Float64Array;
  /** Quantile levels ascending, with `quantiles[i·K + k]` the level-k quantile of point i. */
  quantileLevels: number[] | null;
  quantiles: Float64Array | null;
  /** `samples[i·M + m]`, M = sampleCount. */
  sampleCount: number;
  samples: Float64Array | null;
}

const QUANTILE_NAME = /^q(0?\.\d+)$/;
const SAMPLE_NAME = /^s([1-9]\d*)$/;

/** Parses a quantile column name (`q0.05`) to its level, or null when the name is not one. */
export function quantileLevelOf(name: string): number | null {
  const m = QUANTILE_NAME.exec(name);
  if (!m) return null;
  const level = Number(m[1]);
  return level > 0 && level < 1 ? level : null;
}

export function isSampleColumn(name: string): boolean {
  return SAMPLE_NAME.test(name);
}

/** ForecastRow objects → a ForecastTable (small inputs and tests; files go through readForecasts). */
export function forecastRowsToTable(rows: readonly ForecastRow[], source = 'forecasts'): ForecastTable {
  const qNames = [...new Set(rows.flatMap((r) => Object.keys(r.quantiles ?? {})))];
  const m = rows.reduce((acc, r) => Math.max(acc, r.samples?.length ?? 0), 0);
  return {
    source,
    model: rows.map((r) => r.model),
    series_id: rows.map((r) => r.series_id),
    origin: rows.map((r) => r.origin),
    step: rows.map((r) => r.step),
    value: rows.map((r) => r.value),
    quantiles: qNames.map((name) => {
      const level = quantileLevelOf(name);
      if (level === null) {
        throw new InputError(
          'FORECAST_BAD_COLUMN',
          `${source}: quantile key ${JSON.stringify(name)} is not q<level> with 0 < level < 1 (e.g. q0.05)`,
          { context: { file: source, value: name } },
        );
      }
      return { name, level, values: rows.map((r) => r.quantiles?.[name] ?? Number.NaN) };
    }),
    samples: Array.from({ length: m }, (_, k) => ({
      name: `s${k + 1}`,
      values: rows.map((r) => r.samples?.[k] ?? Number.NaN),
    })),
    firstRow: 1,
  };
}

function fail(code: string, table: ForecastTable, i: number, detail: string, value: unknown): never {
  const row = table.rowNumbers ? table.rowNumbers[i] : table.firstRow + i;
  throw new InputError(code, `${table.source} row ${row}: ${detail}`, {
    context: { file: table.source, row, value },
  });
}

function notPositive(
  table: ForecastTable,
  i: number,
  column: string,
  value: number,
  seriesId: string,
): never {
  fail(
    'FORECAST_NOT_POSITIVE',
    table,
    i,
    `${column} is ${value} but ${seriesId} is positive throughout the split: Tycheon scores it in log-return space, where ln(${value}/y_o) does not exist; forecast values > 0 (e.g. simulate log returns)`,
    value,
  );
}

/**
 * Checks a forecasts table against the task set and lays each model's values onto the panel.
 * Rejects, naming file, row and value: unknown series, origins the split does not have for that series,
 * steps outside 1…H, non-finite values (point, quantile or sample), values ≤ 0 for a series that is positive
 * throughout (positiveSeries: they have no log return), duplicate (model, series, origin,
 * step) rows, crossing quantiles, baseline model names; then any (series, origin, step) a model left out.
 */
export function alignForecasts(panel: EvaluationPanel, table: ForecastTable): ModelForecasts[] {
  const quantiles = [...table.quantiles].sort((a, b) => a.level - b.level);
  for (let k = 1; k < quantiles.length; k++) {
    if (quantiles[k].level === quantiles[k - 1].level) {
      throw new InputError(
        'FORECAST_BAD_COLUMN',
        `${table.source}: columns ${quantiles[k - 1].name} and ${quantiles[k].name} are the same quantile level`,
        { context: { file: table.source, value: quantiles[k].name } },
      );
    }
  }
  const K = quantiles.length;
  const M = table.samples.length;
  if (K > 0 && M > 0) {
    throw new InputError(
      'FORECAST_BAD_COLUMN',
      `${table.source}: has both quantile (${quantiles[0].name}…) and sample (s1…) columns; submit one kind per file`,
      { context: { file: table.source } },
    );
  }
  if (M === 1) {
    throw new InputError(
      'FORECAST_BAD_COLUMN',
      `${table.source}: one sample column (s1); the fair CRPS needs at least 2 samples (s1…sN)`,
      { context: { file: table.source } },
    );
  }
  const models = new Map<string, { forecasts: ModelForecasts; filled: Uint8Array }>();
  const positive = positiveSeries(panel);
  const n = table.model.length;
  const size = panel.actual.length;
  let lastOriginText = '';
  let lastSeries = -1;
  let lastOrigin = -1;
  for (let i = 0; i < n; i++) {
    const model = table.model[i];
    let entry = models.get(model);
    if (entry === undefined) {
      if (typeof model !== 'string' || model.length === 0)
        fail(
          'FORECAST_BAD_MODEL',
          table,
          i,
          `model ${JSON.stringify(model)} is empty; name the model`,
          model,
        );
      entry = {
        forecasts: {
          model,
          // A baseline name is allowed only for that baseline's own forecasts (as `asof baselines` writes
          // them): scorePanel checks them against its own and refuses the file when they differ.
          baseline: (BASELINE_MODELS as readonly string[]).includes(model),
          point: new Float64Array(size).fill(Number.NaN),
          quantileLevels: K ? quantiles.map((q) => q.level) : null,
          quantiles: K ? new Float64Array(size * K) : null,
          sampleCount: M,
          samples: M ? new Float64Array(size * M) : null,
        },
        filled: new Uint8Array(size),
      };
      models.set(model, entry);
    }
    const seriesId = table.series_id[i];
    const s = panel.seriesIndex.get(seriesId);
    if (s === undefined) {
      fail(
        'FORECAST_UNKNOWN_SERIES',
        table,
        i,
        `series_id ${JSON.stringify(seriesId)} is not in the split's task set; forecast only evaluation series`,
        seriesId,
      );
    }
    const originText = table.origin[i];
    let o: number | undefined;
    if (s === lastSeries && originText === lastOriginText) o = lastOrigin;
    else {
      o = panel.originKey.get(
        originKeyOf(
          s,
          parseInstant(
            originText,
            `${table.source} row ${table.rowNumbers ? table.rowNumbers[i] : table.firstRow + i}`,
          ),
        ),
      );
      if (o === undefined) {
        fail(
          'FORECAST_UNKNOWN_ORIGIN',
          table,
          i,
          `origin ${JSON.stringify(originText)} is not an origin of ${seriesId} in the split; use the split's origins`,
          originText,
        );
      }
      lastSeries = s;
      lastOriginText = originText;
      lastOrigin = o;
    }
    const step = table.step[i];
    if (!Number.isInteger(step) || step < 1 || step > panel.horizon[o]) {
      fail(
        'FORECAST_BAD_STEP',
        table,
        i,
        `step ${step} for ${seriesId} @ ${originText}; expected an integer 1…${panel.horizon[o]}`,
        step,
      );
    }
    const value = table.value[i];
    if (!Number.isFinite(value))
      fail('FORECAST_NON_FINITE', table, i, `value ${value}; expected a finite number`, value);
    if (positive[s] && value <= 0) notPositive(table, i, 'value', value, seriesId);
    const idx = panel.targetOffset[o] + step - 1;
    if (entry.filled[idx]) {
      fail(
        'FORECAST_DUPLICATE',
        table,
        i,
        `duplicate row for model ${model}, ${seriesId} @ ${originText} step ${step}; keep one`,
        `${model}|${seriesId}|${originText}|${step}`,
      );
    }
    entry.filled[idx] = 1;
    const f = entry.forecasts;
    f.point[idx] = value;
    if (K) {
      let prev = Number.NEGATIVE_INFINITY;
      for (let k = 0; k < K; k++) {
        const q = quantiles[k].values[i];
        if (!Number.isFinite(q))
          fail('FORECAST_NON_FINITE', table, i, `${quantiles[k].name} is ${q}; expected a finite number`, q);
        if (positive[s] && q <= 0) notPositive(table, i, quantiles[k].name, q, seriesId);
        if (q < prev) {
          fail(
            'FORECAST_CROSSING_QUANTILES',
            table,
            i,
            `${quantiles[k].name} = ${q} is below ${quantiles[k - 1].name} = ${prev}; quantiles must not decrease with the level`,
            q,
          );
        }
        prev = q;
        f.quantiles![idx * K + k] = q;
      }
    }
    if (M) {
      for (let k = 0; k < M; k++) {
        const x = table.samples[k].values[i];
        if (!Number.isFinite(x))
          fail(
            'FORECAST_NON_FINITE',
            table,
            i,
            `${table.samples[k].name} is ${x}; expected a finite number`,
            x,
          );
        if (positive[s] && x <= 0) notPositive(table, i, table.samples[k].name, x, seriesId);
        f.samples![idx * M + k] = x;
      }
    }
  }
  for (const { forecasts, filled } of models.values())
    checkComplete(panel, table.source, forecasts.model, filled);
  return [...models.values()].map((e) => e.forecasts);
}

/** Every model must forecast every step of every origin: models are compared on the same points. */
function checkComplete(panel: EvaluationPanel, source: string, model: string, filled: Uint8Array): void {
  const i = filled.indexOf(0);
  if (i === -1) return;
  let missing = 0;
  for (let k = i; k < filled.length; k++) missing += 1 - filled[k];
  let o = 0;
  while (panel.targetOffset[o + 1] <= i) o++;
  const step = i - panel.targetOffset[o] + 1;
  const series = panel.seriesIds[panel.originSeries[o]];
  throw new InputError(
    'FORECAST_MISSING_STEPS',
    `${source}: model ${model} has no row for ${series} @ ${panel.originIso[o]} step ${step} ` +
      `(${missing} of ${filled.length} (series, origin, step) points missing); every model must forecast steps 1…H of every origin`,
    { context: { file: source, model, series_id: series, origin: panel.originIso[o], step, missing } },
  );
}
