import { readFileSync } from 'node:fs';
import { InputError } from '@asof/schema';
import { type ForecastTable, isSampleColumn, quantileLevelOf } from './align-forecasts.ts';
import { parseCsv } from './parse-csv.ts';
import { readParquetColumns } from './read-parquet-columns.ts';
import { instantText } from './read-split-tables.ts';

const REQUIRED = ['model', 'series_id', 'origin', 'step', 'value'] as const;

/**
 * Reads a forecasts file (`.csv` or `.parquet`) into columns: model, series_id, origin, step, value, and
 * optional quantile columns `q0.05`… or sample columns `s1`…`sN`. Checks the header here; values are
 * checked against the task set by `alignForecasts`, which names the file row of any bad value.
 */
export async function readForecasts(path: string): Promise<ForecastTable> {
  if (/\.parquet$/i.test(path)) return readParquetForecasts(path);
  if (/\.csv$/i.test(path)) return readCsvForecasts(path);
  throw new InputError(
    'FORECAST_FORMAT',
    `${path}: unknown forecasts format; expected a .csv or .parquet file`,
    { context: { file: path } },
  );
}

function checkHeader(path: string, header: string[]): void {
  const missing = REQUIRED.filter((c) => !header.includes(c));
  if (missing.length) {
    throw new InputError(
      'FORECAST_MISSING_COLUMN',
      `${path}: missing column(s) ${missing.join(', ')}; a forecasts file has ${REQUIRED.join(', ')} (+ optional q0.05… or s1…sN)`,
      { context: { file: path, value: header } },
    );
  }
  const unknown = header.filter(
    (c) => !(REQUIRED as readonly string[]).includes(c) && quantileLevelOf(c) === null && !isSampleColumn(c),
  );
  if (unknown.length) {
    throw new InputError(
      'FORECAST_UNKNOWN_COLUMN',
      `${path}: unknown column(s) ${unknown.join(', ')}; allowed: ${REQUIRED.join(', ')}, q<level> (e.g. q0.05), s1…sN`,
      { context: { file: path, value: unknown } },
    );
  }
  const samples = header.filter(isSampleColumn);
  for (let k = 0; k < samples.length; k++) {
    if (!header.includes(`s${k + 1}`)) {
      throw new InputError(
        'FORECAST_BAD_COLUMN',
        `${path}: sample columns must be s1…s${samples.length} without gaps; s${k + 1} is missing`,
        { context: { file: path, value: samples } },
      );
    }
  }
}

/** Empty text is NaN (rejected later as a missing value), not 0 as Number('') would give. */
function toNumber(text: string): number {
  const t = text.trim();
  return t === '' ? Number.NaN : Number(t);
}

function assemble(
  path: string,
  header: string[],
  column: (name: string) => unknown[],
  firstRow: number,
  text: (v: unknown) => string,
  num: (v: unknown) => number,
  originText?: (v: unknown) => string,
): ForecastTable {
  checkHeader(path, header);
  const nums = (name: string) => Float64Array.from(column(name), num);
  return {
    source: path,
    model: column('model').map(text),
    series_id: column('series_id').map(text),
    origin: column('origin').map(originText ?? text),
    step: nums('step'),
    value: nums('value'),
    quantiles: header
      .filter((c) => quantileLevelOf(c) !== null)
      .map((name) => ({ name, level: quantileLevelOf(name)!, values: nums(name) })),
    samples: header
      .filter(isSampleColumn)
      .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)))
      .map((name) => ({ name, values: nums(name) })),
    firstRow,
  };
}

function readCsvForecasts(path: string): ForecastTable {
  const { header, columns, lines } = parseCsv(readFileSync(path, 'utf8'), path);
  // Row numbers in messages are the line a row starts on (the header is line 1).
  const table = assemble(
    path,
    header,
    (name) => columns[header.indexOf(name)],
    2,
    (v) => String(v),
    (v) => toNumber(String(v)),
  );
  table.rowNumbers = lines;
  return table;
}

async function readParquetForecasts(path: string): Promise<ForecastTable> {
  // Column-wise read: a 17M-row file must not become 17M row objects.
  const { columns } = await readParquetColumns(path);
  const header = Object.keys(columns);
  return assemble(
    path,
    header,
    (name) => Array.from(columns[name]),
    1,
    parquetText,
    parquetNumber,
    parquetOrigin,
  );
}

function parquetText(v: unknown): string {
  return v === null || v === undefined ? '' : String(v);
}

/** Parquet timestamps arrive as Date, raw INT64 instants as epoch-µs bigint; origins compare as instants. */
function parquetOrigin(v: unknown): string {
  return v === null || v === undefined ? '' : instantText(v);
}

function parquetNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v === null || v === undefined) return Number.NaN;
  return toNumber(String(v));
}
