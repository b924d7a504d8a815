import { readdirSync, type Stats, statSync } from 'node:fs';
import { InputError, MAX_ABS_VALUE } from '@asof/schema';
import { asyncBufferFromFile, parquetMetadataAsync, parquetSchema } from 'hyparquet';
import { type ForecastTable, isSampleColumn, quantileLevelOf } from './align-forecasts.ts';
import { CodedTextColumn, Float64Column } from './growable-columns.ts';
import { checkFieldCount, streamCsvFile } from './parse-csv.ts';
import { nameText } from './quote-text.ts';
import { readParquetColumns } from './read-parquet-columns.ts';

const REQUIRED = ['model', 'series_id', 'origin', 'step', 'value'] as const;
const COLUMNS_HINT = `${REQUIRED.join(', ')} (+ optional q0.05… or s1…sN)`;

export type ForecastsFormat = 'csv' | 'parquet';

/**
 * Cheap checks of a forecasts file, for a command to run before its minutes of work: the path is a
 * regular file with a known extension (.csv, .parquet), its header (CSV) or schema (Parquet) has the
 * forecasts columns, and it holds at least one row. Reads only the first rows (CSV) or the footer
 * (Parquet). Throws InputError naming the path; values are checked later, by readForecasts + alignForecasts.
 */
export async function checkForecastsReadable(
  path: string,
): Promise<{ format: ForecastsFormat; columns: string[] }> {
  checkIsFile(path);
  const format = formatOf(path);
  if (format === 'parquet') {
    const { columns, rows } = await parquetFooter(path);
    checkHeader(path, columns);
    if (rows === 0) throw headerOnly(path, 'has a schema but 0 rows');
    return { format, columns };
  }
  let header: string[] | null = null;
  let rows = 0;
  await streamCsvFile(path, (fields, line) => {
    if (header === null) {
      header = fields.map((h) => h.trim());
      checkHeader(path, header);
      return true;
    }
    checkFieldCount(path, header, fields, line);
    rows++;
    return false;
  });
  if (header === null) throw emptyFile(path);
  if (rows === 0) throw headerOnly(path, 'has a header line but no rows');
  return { format, columns: header };
}

/**
 * Reads a forecasts file (`.csv` or `.parquet`) into columns: model, series_id, origin, step, value, and
 * optional quantile columns `q0.05`… or sample columns `s1`…`sN`. A CSV is streamed (a file of any size;
 * numbers go straight into typed arrays, text columns are dictionary-coded). Checks the path, the header
 * and that there are rows here; values are checked against the task set by `alignForecasts`, which names
 * the file row of any bad value. `runSync` runs the long synchronous step of a Parquet file (its columns
 * coded and converted: seconds for millions of rows), as in ScoreSplitOptions.
 */
export async function readForecasts(
  path: string,
  options: { runSync?: <T>(work: () => T) => Promise<T> } = {},
): Promise<ForecastTable> {
  checkIsFile(path);
  return formatOf(path) === 'parquet'
    ? readParquetForecasts(path, options.runSync ?? (async (work) => work()))
    : readCsvForecasts(path);
}

function formatOf(path: string): ForecastsFormat {
  if (/\.parquet$/i.test(path)) return 'parquet';
  if (/\.csv$/i.test(path)) return 'csv';
  throw new InputError(
    'FORECAST_FORMAT',
    `${path}: unknown forecasts format; expected a .csv or .parquet file (the format is taken from the extension)`,
    { context: { file: path } },
  );
}

function checkIsFile(path: string): void {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new InputError(
        'FORECAST_NOT_FOUND',
        `${path}: no such forecasts file; check the path (a .csv or .parquet file written by your model or by asof baselines)`,
        { context: { file: path }, cause },
      );
    }
    throw new InputError(
      'FORECAST_UNREADABLE',
      `${path}: cannot read the forecasts file (${code ?? (cause as Error).message}); check its permissions`,
      { context: { file: path }, cause },
    );
  }
  if (stats.isDirectory()) {
    let inside: string[] = [];
    try {
      inside = readdirSync(path).filter((f) => /\.(csv|parquet)$/i.test(f));
    } catch {
      // An unlistable folder gets the hint without examples.
    }
    const examples = inside.length
      ? ` it holds ${inside.slice(0, 3).map(nameText).join(', ')}${inside.length > 3 ? ', …' : ''}`
      : '';
    throw new InputError(
      'FORECAST_NOT_A_FILE',
      `${path}: is a folder, not a forecasts file; pass the .csv or .parquet file itself${examples ? ` (${examples.trim()})` : ''}`,
      { context: { file: path } },
    );
  }
  if (!stats.isFile()) {
    throw new InputError(
      'FORECAST_NOT_A_FILE',
      `${path}: is not a regular file; pass a .csv or .parquet forecasts file`,
      { context: { file: path } },
    );
  }
}

function emptyFile(path: string): InputError {
  return new InputError(
    'FORECAST_EMPTY',
    `${path}: empty file; a forecasts file has the header ${REQUIRED.join(',')} and one row per (model, series_id, origin, step)`,
    { context: { file: path } },
  );
}

function headerOnly(path: string, what: string): InputError {
  return new InputError(
    'FORECAST_EMPTY',
    `${path}: ${what}; a forecasts file has one row per (model, series_id, origin, step) of the split`,
    { context: { file: path } },
  );
}

function checkHeader(path: string, header: readonly string[]): void {
  const list = (names: readonly string[]) => names.map(nameText).join(', ');
  const missing = REQUIRED.filter((c) => !header.includes(c));
  if (missing.length) {
    throw new InputError(
      'FORECAST_MISSING_COLUMN',
      `${path}: missing column(s) ${missing.join(', ')}; a forecasts file has ${COLUMNS_HINT}`,
      { context: { file: path, value: header } },
    );
  }
  const repeated = header.filter((c, i) => header.indexOf(c) !== i);
  if (repeated.length) {
    throw new InputError(
      'FORECAST_DUPLICATE_COLUMN',
      `${path}: column(s) ${list([...new Set(repeated)])} appear more than once; keep one of each`,
      { context: { file: path, value: repeated } },
    );
  }
  const unknown = header.filter(
    (c) => !(REQUIRED as readonly string[]).includes(c) && quantileLevelOf(c) === null && !isSampleColumn(c),
  );
  if (unknown.length) {
    throw new InputError(
      'FORECAST_UNKNOWN_COLUMN',
      `${path}: unknown column(s) ${list(unknown)}; allowed: ${REQUIRED.join(', ')}, q<level> (e.g. q0.05), s1…sN`,
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

/** Where a forecast cell is: CSV line (the row the alignment names) or Parquet row, and its column. */
interface NumberPlace {
  file: string;
  place: string;
  row: number;
  field: string;
}

/** Decimal or exponent notation: what every CSV writer emits for a float, and nothing Number() also takes. */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A forecast cell as a number. Empty text is NaN (a missing value, refused or allowed by the checks that
 * follow), not 0 as Number('') would give. Anything but decimal or exponent notation is refused where it is read
 * (issue 52): Number() would take `0x10` as 16, and `Infinity` or `NaN` spelled out are not forecasts.
 */
function toNumber(text: string, where: () => NumberPlace): number {
  const t = text.trim();
  if (t === '') return Number.NaN;
  if (!DECIMAL.test(t)) {
    const { file, place, row, field } = where();
    throw new InputError(
      'FORECAST_BAD_NUMBER',
      `${file} ${place}, field ${field}: ${JSON.stringify(text)} is not a number in decimal or exponent notation (e.g. 16, -1.25, 3.2e-4); hexadecimal, Infinity and NaN are refused — write the value, or leave the cell empty`,
      { context: { file, row, field, value: text } },
    );
  }
  return Number(t);
}

/**
 * A forecast value (point, quantile or sample) as a number, bounded as observations are (±1e15,
 * MAX_ABS_VALUE, docs/decisions/0012 and 0058): a finite value beyond it (1e308) is no forecast of any
 * series asof holds, and the metrics, which divide it by the series' values and square and sum it, would
 * overflow to Infinity far from the row that caused it. Non-finite values pass: the alignment names them.
 */
function toForecastValue(value: number, where: () => NumberPlace): number {
  if (Number.isFinite(value) && Math.abs(value) >= MAX_ABS_VALUE) {
    const { file, place, row, field } = where();
    throw new InputError(
      'FORECAST_OUT_OF_RANGE',
      `${file} ${place}, field ${field}: ${value} is beyond ±1e15, larger than any value asof holds (its observations are bounded the same way); forecast the series in its own units`,
      { context: { file, row, field, value } },
    );
  }
  return value;
}

/**
 * The bound of toForecastValue over a table read by another reader (the CLI's DuckDB reader of Parquet
 * files): the same error, for the same first cell, as readForecasts gives (columns in its order, value,
 * quantiles, samples; rows counted from table.firstRow).
 */
export function checkForecastBounds(table: ForecastTable): void {
  const columns = [
    { name: 'value', values: table.value },
    ...table.quantiles.map((q) => ({ name: q.name, values: q.values })),
    ...table.samples.map((x) => ({ name: x.name, values: x.values })),
  ];
  for (const { name, values } of columns) {
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (!Number.isFinite(v) || Math.abs(v) < MAX_ABS_VALUE) continue;
      const row = table.firstRow + i;
      toForecastValue(v, () => ({ file: table.source, place: `row ${row}`, row, field: name }));
    }
  }
}

function sortedSamples(header: readonly string[]): string[] {
  return header.filter(isSampleColumn).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
}

/** The columns of a CSV forecasts file being streamed in: typed arrays and dictionary-coded text. */
class CsvForecastColumns {
  private readonly model = new CodedTextColumn();
  private readonly seriesId = new CodedTextColumn();
  private readonly origin = new CodedTextColumn();
  private readonly step = new Float64Column();
  private readonly value = new Float64Column();
  private readonly extra: { name: string; level: number | null; at: number; values: Float64Column }[];
  private readonly at: Record<(typeof REQUIRED)[number], number>;
  /** The line of each row, kept only once a row does not start on line 2 + its index. */
  private lines: Float64Column | null = null;
  rows = 0;

  constructor(
    private readonly path: string,
    private readonly header: string[],
  ) {
    checkHeader(path, header);
    this.at = Object.fromEntries(REQUIRED.map((c) => [c, header.indexOf(c)])) as typeof this.at;
    this.extra = [...header.filter((c) => quantileLevelOf(c) !== null), ...sortedSamples(header)].map(
      (name) => ({
        name,
        level: quantileLevelOf(name),
        at: header.indexOf(name),
        values: new Float64Column(),
      }),
    );
  }

  add(fields: string[], line: number): void {
    checkFieldCount(this.path, this.header, fields, line);
    const row = this.rows++;
    if (this.lines !== null) this.lines.push(line);
    else if (line !== row + 2) {
      this.lines = new Float64Column();
      for (let r = 0; r < row; r++) this.lines.push(r + 2);
      this.lines.push(line);
    }
    const at = this.at;
    this.model.push(fields[at.model]);
    this.seriesId.push(fields[at.series_id]);
    this.origin.push(fields[at.origin]);
    const where = (field: string) => () => ({ file: this.path, place: `line ${line}`, row: line, field });
    this.step.push(toNumber(fields[at.step], where('step')));
    const value = where('value');
    this.value.push(toForecastValue(toNumber(fields[at.value], value), value));
    for (const x of this.extra) {
      const cell = where(x.name);
      x.values.push(toForecastValue(toNumber(fields[x.at], cell), cell));
    }
  }

  finish(): ForecastTable {
    const quantiles: ForecastTable['quantiles'] = [];
    const samples: ForecastTable['samples'] = [];
    for (const x of this.extra) {
      if (x.level === null) samples.push({ name: x.name, values: x.values.finish() });
      else quantiles.push({ name: x.name, level: x.level, values: x.values.finish() });
    }
    return {
      source: this.path,
      model: this.model.finish(),
      series_id: this.seriesId.finish(),
      origin: this.origin.finish(),
      step: this.step.finish(),
      value: this.value.finish(),
      quantiles,
      samples,
      // Row numbers in messages are the line a row starts on (the header is line 1).
      firstRow: 2,
      rowNumbers: this.lines?.finish(),
    };
  }
}

async function readCsvForecasts(path: string): Promise<ForecastTable> {
  let columns: CsvForecastColumns | null = null;
  await streamCsvFile(path, (fields, line) => {
    if (columns === null)
      columns = new CsvForecastColumns(
        path,
        fields.map((h) => h.trim()),
      );
    else columns.add(fields, line);
    return true;
  });
  const read = columns as CsvForecastColumns | null;
  if (read === null) throw emptyFile(path);
  if (read.rows === 0) throw headerOnly(path, 'has a header line but no rows');
  return read.finish();
}

async function parquetFooter(path: string): Promise<{ columns: string[]; rows: number }> {
  try {
    const metadata = await parquetMetadataAsync(await asyncBufferFromFile(path));
    return {
      columns: parquetSchema(metadata).children.map((c) => c.element.name),
      rows: Number(metadata.num_rows),
    };
  } catch (cause) {
    throw new InputError(
      'PARQUET_UNREADABLE',
      `${path}: not a readable Parquet file (${(cause as Error).message}); write forecasts as CSV or Parquet`,
      { context: { file: path }, cause },
    );
  }
}

async function readParquetForecasts(
  path: string,
  runSync: <T>(work: () => T) => Promise<T>,
): Promise<ForecastTable> {
  // Column-wise read: a 17M-row file must not become 17M row objects.
  const { rows, columns } = await readParquetColumns(path);
  return runSync(() => codeParquetForecasts(path, rows, columns));
}

function codeParquetForecasts(
  path: string,
  rows: number,
  columns: Record<string, ArrayLike<unknown>>,
): ForecastTable {
  const header = Object.keys(columns);
  checkHeader(path, header);
  if (rows === 0) throw headerOnly(path, 'has a schema but 0 rows');
  const coded = (name: string, key: (v: unknown) => unknown, text: (k: unknown) => string) => {
    const out = new CodedTextColumn();
    const values = columns[name];
    for (let i = 0; i < values.length; i++) out.push(key(values[i]), text);
    return out.finish();
  };
  const nums = (name: string, bounded = true) =>
    Float64Array.from(columns[name], (v, i) => {
      const where = () => ({ file: path, place: `row ${i + 1}`, row: i + 1, field: name });
      const x = parquetNumber(v, where);
      return bounded ? toForecastValue(x, where) : x;
    });
  return {
    source: path,
    model: coded('model', parquetText, String),
    series_id: coded('series_id', parquetText, String),
    origin: coded('origin', originKey, originText),
    step: nums('step', false),
    value: nums('value'),
    quantiles: header
      .filter((c) => quantileLevelOf(c) !== null)
      .map((name) => ({ name, level: quantileLevelOf(name)!, values: nums(name) })),
    samples: sortedSamples(header).map((name) => ({ name, values: nums(name) })),
    firstRow: 1,
  };
}

function parquetText(v: unknown): string {
  return v === null || v === undefined ? '' : String(v);
}

/** Parquet timestamps arrive as Date, raw INT64 instants as epoch-µs bigint: both key on epoch ms. */
function originKey(v: unknown): unknown {
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'bigint') return Number(v / 1000n);
  return parquetText(v);
}

function originText(key: unknown): string {
  if (typeof key !== 'number') return String(key);
  // An invalid timestamp becomes text the origin check refuses (toISOString would throw).
  return Number.isFinite(key) ? new Date(key).toISOString() : 'Invalid Date';
}

function parquetNumber(v: unknown, where: () => NumberPlace): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v === null || v === undefined) return Number.NaN;
  return toNumber(String(v), where);
}
