import { InputError } from '@asof/schema';
import { type EvaluationPanel, originKeyOf } from './build-evaluation-panel.ts';
import { instantOf } from './parse-instant.ts';
import { positiveSeries } from './positive-series.ts';
import { controlCharacterIn, quoteText } from './quote-text.ts';
import { BASELINE_MODELS, type ForecastRow } from './score-types.ts';

/** A text column with each distinct string stored once: row i holds `dictionary[codes[i]]`. */
export interface CodedText {
  codes: Uint32Array;
  dictionary: readonly string[];
}

/** A text column: one string per row, or dictionary-coded (what readForecasts returns). */
export type TextColumn = ArrayLike<string> | CodedText;

/** A forecasts file in columns, as read from CSV or Parquet (or converted from ForecastRow objects). */
export interface ForecastTable {
  /** File path (or a label) used in every error message. */
  source: string;
  model: TextColumn;
  series_id: TextColumn;
  origin: TextColumn;
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

function rowOf(table: ForecastTable, i: number): number {
  return table.rowNumbers ? table.rowNumbers[i] : table.firstRow + i;
}

function fail(
  code: string,
  table: ForecastTable,
  i: number,
  field: string,
  detail: string,
  value: unknown,
): never {
  const row = rowOf(table, i);
  throw new InputError(code, `${table.source} row ${row}: ${detail}`, {
    context: { file: table.source, row, field, value },
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
    column,
    `${column} is ${value} but ${seriesId} is positive throughout the split: Tycheon scores it in log-return space, where ln(${value}/y_o) does not exist; forecast values > 0 (e.g. simulate log returns)`,
    value,
  );
}

/** A text column as codes + dictionary (string arrays are coded here; readers code while reading). */
function codedText(column: TextColumn): CodedText {
  if ('codes' in column) return column;
  const index = new Map<string, number>();
  const dictionary: string[] = [];
  const codes = new Uint32Array(column.length);
  for (let i = 0; i < column.length; i++) {
    const v = column[i];
    let code = index.get(v);
    if (code === undefined) {
      code = dictionary.length;
      index.set(v, code);
      dictionary.push(v);
    }
    codes[i] = code;
  }
  return { codes, dictionary };
}

/** Quantile columns by level (no level twice), sample columns, and not both kinds in one file. */
function probabilisticColumns(table: ForecastTable) {
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
  const samples = table.samples;
  if (quantiles.length > 0 && samples.length > 0) {
    throw new InputError(
      'FORECAST_BAD_COLUMN',
      `${table.source}: has both quantile (${quantiles[0].name}…) and sample (s1…) columns; submit one kind per file`,
      { context: { file: table.source } },
    );
  }
  if (samples.length === 1) {
    throw new InputError(
      'FORECAST_BAD_COLUMN',
      `${table.source}: one sample column (s1); the fair CRPS needs at least 2 samples (s1…sN)`,
      { context: { file: table.source } },
    );
  }
  return { quantiles, samples };
}

/** Model names and series ids are printed in tables and terminals: no control characters. */
function checkPrintable(table: ForecastTable, i: number, field: string, text: string): void {
  const bad = controlCharacterIn(text);
  if (bad) {
    fail(
      'FORECAST_CONTROL_CHARACTER',
      table,
      i,
      field,
      `${field} ${quoteText(text)} contains the control character ${bad}; use printable characters (letters, digits, punctuation, spaces)`,
      text,
    );
  }
}

function originTimeOf(table: ForecastTable, i: number, text: string): number {
  const ms = instantOf(text);
  if (typeof ms !== 'number') {
    fail(
      'FORECAST_BAD_ORIGIN',
      table,
      i,
      'origin',
      `origin ${quoteText(text)} ${ms.reason}; write the split's origin, e.g. 2024-01-31 or 2024-01-31T00:00:00Z`,
      text,
    );
  }
  return ms;
}

interface ModelEntry {
  forecasts: ModelForecasts;
  filled: Uint8Array;
}

function newModel(
  table: ForecastTable,
  i: number,
  model: string,
  size: number,
  levels: number[],
  sampleCount: number,
): ModelEntry {
  if (typeof model !== 'string' || model.length === 0)
    fail(
      'FORECAST_BAD_MODEL',
      table,
      i,
      'model',
      `model ${quoteText(model)} is empty; name the model`,
      model,
    );
  checkPrintable(table, i, 'model', model);
  const K = levels.length;
  return {
    forecasts: {
      model,
      // A baseline name is allowed only for that baseline's own forecasts (as `asof baselines` writes
      // them): scorePanel checks them against its own and refuses the file when they differ.
      baseline: (BASELINE_MODELS as readonly string[]).includes(model),
      point: new Float64Array(size).fill(Number.NaN),
      quantileLevels: K ? levels : null,
      quantiles: K ? new Float64Array(size * K) : null,
      sampleCount,
      samples: sampleCount ? new Float64Array(size * sampleCount) : null,
    },
    filled: new Uint8Array(size),
  };
}

/**
 * Checks a forecasts table against the task set and lays each model's values onto the panel.
 * Rejects, naming file, row, field and value: an empty table, model names and series ids with control
 * characters, unknown series, origins that are not calendar-valid zoned instants or dates or that the split
 * does not have for that series, steps outside 1…H, non-finite values (point, quantile or sample), values ≤ 0
 * for a series that is positive throughout (positiveSeries: they have no log return), duplicate (model,
 * series, origin, step) rows, crossing quantiles; then any (series, origin, step) a model left out.
 * Each distinct model, series and origin text is checked once (text columns are dictionary-coded).
 */
export function alignForecasts(panel: EvaluationPanel, table: ForecastTable): ModelForecasts[] {
  const { quantiles, samples } = probabilisticColumns(table);
  const K = quantiles.length;
  const M = samples.length;
  const levels = quantiles.map((q) => q.level);
  const model = codedText(table.model);
  const series = codedText(table.series_id);
  const origin = codedText(table.origin);
  const n = model.codes.length;
  if (n === 0) {
    throw new InputError(
      'FORECAST_EMPTY',
      `${table.source}: no forecast rows; a forecasts file has one row per (model, series_id, origin, step) of the split`,
      { context: { file: table.source } },
    );
  }
  const positive = positiveSeries(panel);
  const size = panel.actual.length;
  const entries: (ModelEntry | undefined)[] = new Array(model.dictionary.length);
  const order: ModelEntry[] = [];
  // Per distinct text: the panel series (-1: not looked up yet) and the origin instant (NaN: not parsed yet).
  const seriesOf = new Int32Array(series.dictionary.length).fill(-1);
  const originMs = new Float64Array(origin.dictionary.length).fill(Number.NaN);
  let lastSeries = -1;
  let lastOriginCode = -1;
  let lastOrigin = -1;
  for (let i = 0; i < n; i++) {
    const mc = model.codes[i];
    let entry = entries[mc];
    if (entry === undefined) {
      entry = newModel(table, i, model.dictionary[mc], size, levels, M);
      entries[mc] = entry;
      order.push(entry);
    }
    const sc = series.codes[i];
    const seriesId = series.dictionary[sc];
    let s = seriesOf[sc];
    if (s < 0) {
      checkPrintable(table, i, 'series_id', seriesId);
      const found = panel.seriesIndex.get(seriesId);
      if (found === undefined) {
        fail(
          'FORECAST_UNKNOWN_SERIES',
          table,
          i,
          'series_id',
          `series_id ${quoteText(seriesId)} is not in the split's task set; forecast only evaluation series`,
          seriesId,
        );
      }
      s = found;
      seriesOf[sc] = s;
    }
    const oc = origin.codes[i];
    const originText = origin.dictionary[oc];
    let o: number;
    if (s === lastSeries && oc === lastOriginCode) o = lastOrigin;
    else {
      let ms = originMs[oc];
      if (Number.isNaN(ms)) {
        ms = originTimeOf(table, i, originText);
        originMs[oc] = ms;
      }
      const found = panel.originKey.get(originKeyOf(s, ms));
      if (found === undefined) {
        fail(
          'FORECAST_UNKNOWN_ORIGIN',
          table,
          i,
          'origin',
          `origin ${quoteText(originText)} is not an origin of ${seriesId} in the split; use the split's origins`,
          originText,
        );
      }
      o = found;
      lastSeries = s;
      lastOriginCode = oc;
      lastOrigin = o;
    }
    const step = table.step[i];
    if (!Number.isInteger(step) || step < 1 || step > panel.horizon[o]) {
      fail(
        'FORECAST_BAD_STEP',
        table,
        i,
        'step',
        `step ${step} for ${seriesId} @ ${originText}; expected an integer 1…${panel.horizon[o]}`,
        step,
      );
    }
    const value = table.value[i];
    if (!Number.isFinite(value))
      fail('FORECAST_NON_FINITE', table, i, 'value', `value ${value}; expected a finite number`, value);
    if (positive[s] && value <= 0) notPositive(table, i, 'value', value, seriesId);
    const idx = panel.targetOffset[o] + step - 1;
    const f = entry.forecasts;
    if (entry.filled[idx]) {
      fail(
        'FORECAST_DUPLICATE',
        table,
        i,
        'step',
        `duplicate row for model ${f.model}, ${seriesId} @ ${originText} step ${step}; keep one`,
        `${f.model}|${seriesId}|${originText}|${step}`,
      );
    }
    entry.filled[idx] = 1;
    f.point[idx] = value;
    if (K) layQuantiles(table, i, quantiles, positive[s] === 1, seriesId, f.quantiles!, idx * K);
    if (M) laySamples(table, i, samples, positive[s] === 1, seriesId, f.samples!, idx * M);
  }
  for (const { forecasts, filled } of order) checkComplete(panel, table.source, forecasts.model, filled);
  return order.map((e) => e.forecasts);
}

function layQuantiles(
  table: ForecastTable,
  i: number,
  quantiles: ForecastTable['quantiles'],
  positive: boolean,
  seriesId: string,
  out: Float64Array,
  at: number,
): void {
  let prev = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < quantiles.length; k++) {
    const { name } = quantiles[k];
    const q = quantiles[k].values[i];
    if (!Number.isFinite(q))
      fail('FORECAST_NON_FINITE', table, i, name, `${name} is ${q}; expected a finite number`, q);
    if (positive && q <= 0) notPositive(table, i, name, q, seriesId);
    if (q < prev) {
      fail(
        'FORECAST_CROSSING_QUANTILES',
        table,
        i,
        name,
        `${name} = ${q} is below ${quantiles[k - 1].name} = ${prev}; quantiles must not decrease with the level`,
        q,
      );
    }
    prev = q;
    out[at + k] = q;
  }
}

function laySamples(
  table: ForecastTable,
  i: number,
  samples: ForecastTable['samples'],
  positive: boolean,
  seriesId: string,
  out: Float64Array,
  at: number,
): void {
  for (let k = 0; k < samples.length; k++) {
    const { name } = samples[k];
    const x = samples[k].values[i];
    if (!Number.isFinite(x))
      fail('FORECAST_NON_FINITE', table, i, name, `${name} is ${x}; expected a finite number`, x);
    if (positive && x <= 0) notPositive(table, i, name, x, seriesId);
    out[at + k] = x;
  }
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
