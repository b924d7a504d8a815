import { InputError } from '@asof/schema';
import type { EvaluationPanel } from './build-evaluation-panel.ts';
import { OriginMatcher } from './origin-matcher.ts';
import { positiveSeries } from './positive-series.ts';
import { controlCharacterIn, quoteText } from './quote-text.ts';
import { BASELINE_MODELS, type ForecastRow } from './score-types.ts';
import { MAX_FORECAST_RATIO, smallestMagnitude } from './series-magnitude.ts';

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
  /**
   * 1 for each panel origin the model forecasts (every step 1…H), 0 for one it leaves out; null or absent:
   * every origin (a full-coverage model). scorePanel scores a partial model on its origins only.
   */
  covered?: Uint8Array | null;
  /**
   * The quantiles are μ + z_τ·σ of a Gaussian in the series' return space (the scorer's own ARIMA and
   * GARCH), so the variance they imply is the model's own, not an approximation: QLIKE reads it as exact.
   */
  gaussianQuantiles?: boolean;
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

/**
 * A finite forecast too large for its series: divided by the series' smallest values and squared, it would
 * overflow a double in the metrics (series-magnitude.ts).
 */
function checkMagnitude(
  table: ForecastTable,
  i: number,
  column: string,
  value: number,
  seriesId: string,
  smallest: number,
): void {
  if (!(Math.abs(value) > smallest * MAX_FORECAST_RATIO)) return;
  fail(
    'FORECAST_OUT_OF_RANGE',
    table,
    i,
    column,
    `${column} is ${value}, more than 1e100 times ${seriesId}'s smallest value ${smallest}: its returns would overflow the metrics; forecast the series in its own units`,
    value,
  );
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

interface ModelEntry {
  forecasts: ModelForecasts;
  filled: Uint8Array;
  /** The model's first row: it decides whether the model gives quantiles (samples) at all. */
  firstRow: number;
}

/** Every cell of row i in these columns is empty (NaN): a model without this kind in a file that has it. */
function allEmpty(columns: readonly { values: ArrayLike<number> }[], i: number): boolean {
  return columns.length > 0 && columns.every((c) => Number.isNaN(c.values[i]));
}

/**
 * A model with no quantile (sample) values in a file that has those columns (`asof baselines` writes the
 * point baselines beside ARIMA and GARCH): every one of its rows must leave them empty.
 */
function checkStillEmpty(
  table: ForecastTable,
  i: number,
  entry: ModelEntry,
  columns: readonly { name: string; values: ArrayLike<number> }[],
  kind: string,
): void {
  for (const c of columns) {
    if (Number.isNaN(c.values[i])) continue;
    fail(
      'FORECAST_MIXED_COLUMNS',
      table,
      i,
      c.name,
      `model ${quoteText(entry.forecasts.model)} gives ${c.name} = ${c.values[i]} here but no ${kind} on its first row (row ${rowOf(table, entry.firstRow)}); a model gives ${kind} on every row or leaves them empty on every row`,
      c.values[i],
    );
  }
}

function newModel(
  table: ForecastTable,
  i: number,
  model: string,
  size: number,
  allLevels: number[],
  allSamples: number,
  quantiles: ForecastTable['quantiles'],
  samples: ForecastTable['samples'],
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
  const levels = allEmpty(quantiles, i) ? [] : allLevels;
  const sampleCount = allEmpty(samples, i) ? 0 : allSamples;
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
      covered: null,
    },
    filled: new Uint8Array(size),
    firstRow: i,
  };
}

/**
 * Checks a forecasts table against the task set and lays each model's values onto the panel.
 * An origin is named by its period label (the split's origin_label: 2019-12, 2019Q4, FY2019, 2020-03-04)
 * or its instant (OriginMatcher). A model may cover any subset of the (series, origin) pairs, with whole
 * paths: its `covered` marks the origins it forecasts (null when it covers them all).
 * Rejects, naming file, row, field and value: an empty table, model names and series ids with control
 * characters, unknown series, origins that are neither a label nor a calendar-valid zoned instant or date of
 * that series in the split (naming the nearest valid origins), steps outside 1…H, non-finite values (point,
 * quantile or sample), values ≤ 0 for a series that is positive throughout (positiveSeries: they have no
 * log return), duplicate (model, series, origin, step) rows, crossing quantiles; then any origin a model
 * forecasts only some steps of. A model whose first row leaves every quantile (sample) column empty has
 * none, and must leave them empty on every row (FORECAST_MIXED_COLUMNS): point models may share a file with
 * quantile models.
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
  const smallest = smallestMagnitude(panel);
  const size = panel.actual.length;
  const entries: (ModelEntry | undefined)[] = new Array(model.dictionary.length);
  const order: ModelEntry[] = [];
  // Per distinct text: the panel series (-1: not looked up yet); origin texts are resolved per series.
  const seriesOf = new Int32Array(series.dictionary.length).fill(-1);
  const matcher = new OriginMatcher(panel);
  let lastSeries = -1;
  let lastOriginCode = -1;
  let lastOrigin = -1;
  for (let i = 0; i < n; i++) {
    const mc = model.codes[i];
    let entry = entries[mc];
    if (entry === undefined) {
      entry = newModel(table, i, model.dictionary[mc], size, levels, M, quantiles, samples);
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
      const found = matcher.find(s, oc, originText);
      if (typeof found !== 'number') {
        const row = rowOf(table, i);
        throw new InputError(found.code, `${table.source} row ${row}: ${found.detail}`, {
          context: { file: table.source, row, field: 'origin', value: originText, nearest: found.nearest },
        });
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
    checkMagnitude(table, i, 'value', value, seriesId, smallest[s]);
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
    if (f.quantiles || f.samples) {
      const checks = { id: seriesId, positive: positive[s] === 1, smallest: smallest[s] };
      if (f.quantiles) layQuantiles(table, i, quantiles, checks, f.quantiles, idx * K);
      if (f.samples) laySamples(table, i, samples, checks, f.samples, idx * M);
    }
    if (!f.quantiles && K) checkStillEmpty(table, i, entry, quantiles, 'quantiles');
    if (!f.samples && M) checkStillEmpty(table, i, entry, samples, 'samples');
  }
  for (const { forecasts, filled } of order)
    forecasts.covered = wholePathsCovered(panel, matcher, table.source, forecasts.model, filled);
  return order.map((e) => e.forecasts);
}

/** What a forecast value is checked against: its series, positive throughout or not, and its smallest value. */
interface SeriesChecks {
  id: string;
  positive: boolean;
  smallest: number;
}

function layQuantiles(
  table: ForecastTable,
  i: number,
  quantiles: ForecastTable['quantiles'],
  series: SeriesChecks,
  out: Float64Array,
  at: number,
): void {
  let prev = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < quantiles.length; k++) {
    const { name } = quantiles[k];
    const q = quantiles[k].values[i];
    if (!Number.isFinite(q))
      fail('FORECAST_NON_FINITE', table, i, name, `${name} is ${q}; expected a finite number`, q);
    if (series.positive && q <= 0) notPositive(table, i, name, q, series.id);
    checkMagnitude(table, i, name, q, series.id, series.smallest);
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
  series: SeriesChecks,
  out: Float64Array,
  at: number,
): void {
  for (let k = 0; k < samples.length; k++) {
    const { name } = samples[k];
    const x = samples[k].values[i];
    if (!Number.isFinite(x))
      fail('FORECAST_NON_FINITE', table, i, name, `${name} is ${x}; expected a finite number`, x);
    if (series.positive && x <= 0) notPositive(table, i, name, x, series.id);
    checkMagnitude(table, i, name, x, series.id, series.smallest);
    out[at + k] = x;
  }
}

/**
 * The origins a model forecasts, each with its whole path 1…H (null: every origin). An origin with some
 * steps but not all (a half-covered origin) is refused, naming it: a path without its last steps has no
 * horizon-end return, and the baselines are compared on the same paths.
 */
function wholePathsCovered(
  panel: EvaluationPanel,
  matcher: OriginMatcher,
  source: string,
  model: string,
  filled: Uint8Array,
): Uint8Array | null {
  const n = panel.horizon.length;
  const covered = new Uint8Array(n);
  let all = true;
  for (let o = 0; o < n; o++) {
    const start = panel.targetOffset[o];
    const h = panel.horizon[o];
    let count = 0;
    for (let k = 0; k < h; k++) count += filled[start + k];
    if (count === h) covered[o] = 1;
    else if (count === 0) all = false;
    else {
      let step = 1;
      while (filled[start + step - 1]) step++;
      const series = panel.seriesIds[panel.originSeries[o]];
      const at = matcher.describe(o);
      throw new InputError(
        'FORECAST_MISSING_STEPS',
        `${source}: model ${model} forecasts ${series} @ ${at} but has no row for step ${step} ` +
          `(${h - count} of its ${h} steps missing); forecast the whole path 1…${h} of each origin you cover, or none of it`,
        {
          context: {
            file: source,
            model,
            series_id: series,
            origin: panel.originIso[o],
            step,
            missing: h - count,
          },
        },
      );
    }
  }
  return all ? null : covered;
}
