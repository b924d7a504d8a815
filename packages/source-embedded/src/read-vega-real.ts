import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { badDateMessage, isoDateProblem, parseIsoDate, zonedMicros } from '@asof/calendar';
import {
  type AtomicSink,
  hasControlChars,
  InputError,
  implausibleValueProblem,
  printable,
  SeriesId,
  type SeriesInput,
} from '@asof/schema';
import { numberField, parseSimpleCsv } from './parse-simple-csv.ts';
import { firstFridayNextMonthMicros, monthEndMicros } from './release-rules.ts';

/** The data folder of the installed vega-datasets package. */
export function vegaDataDir(): string {
  const main = createRequire(import.meta.url).resolve('vega-datasets');
  return join(dirname(main), '..', 'data');
}

interface ReadContext {
  dir: string;
  sink: AtomicSink;
}

function readInput(ctx: ReadContext, name: string): { text: string; file: string; sha256: string } {
  const file = join(ctx.dir, name);
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch (cause) {
    throw new InputError('EMBEDDED_FILE_MISSING', `${file}: cannot read (${(cause as Error).message})`, {
      context: { file },
      cause,
    });
  }
  const sha256 = createHash('sha256').update(buf).digest('hex');
  ctx.sink.addInput({ source: 'vega-datasets', key: name, sha256, bytes: buf.length });
  return { text: buf.toString('utf8'), file, sha256 };
}

/**
 * The embedded files are read whole: a row that cannot be mapped stops the build with its file and line, so
 * every row read is mapped (the accounting says so, and what a row is).
 */
function accountWholeFile(ctx: ReadContext, name: string, record: string, rows: number): void {
  ctx.sink.addAccounting({
    source: 'vega-datasets',
    file: name,
    record,
    read: rows,
    mapped: rows,
    dropped: {},
    mappable: rows,
  });
}

const STATIC_REAL = {
  source: 'vega-datasets',
  entity_id: null,
  entity_name: null,
  seasonal_adjustment: null,
  fiscal_year_end: null,
  is_synthetic: false,
  universe_kind: 'static',
} as const;

function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** S&P 500 daily OHLCV (vega `sp500-2000.csv`): bar-close rule at 16:00 New York, basis `rule`. */
export function readVegaSp500(ctx: ReadContext): void {
  const name = 'sp500-2000.csv';
  const { text, file, sha256 } = readInput(ctx, name);
  const { rows } = parseSimpleCsv(text, file);
  const fields = ['open', 'high', 'low', 'close', 'volume'] as const;
  for (const f of fields) {
    const isClose = f === 'close';
    ctx.sink.addSeries({
      ...STATIC_REAL,
      series_id: `vega:sp500:${f}`,
      source_key: `${name}#${f}`,
      title: `S&P 500 index daily ${f}`,
      unit: f === 'volume' ? 'shares' : 'index points',
      frequency: 'BD',
      scope: 'Country',
      category: 'Market Indicators',
      detail_category: isClose
        ? 'US Equity Index'
        : `US Equity Index OHLCV ${f[0].toUpperCase()}${f.slice(1)}`,
      currency: f === 'volume' ? null : 'USD',
    });
  }
  const ref = `sha256:${sha256.slice(0, 16)}`;
  for (const row of rows) {
    const date = row.fields.date;
    const bad = badDateMessage(date);
    if (bad !== null) {
      throw new InputError('CSV_BAD_DATE', `${file} line ${row.line}, field 'date': ${bad}`, {
        context: { file, line: row.line, field: 'date', value: date },
      });
    }
    // Bar close; early-close days (13:00) are not distinguished for this static index file, so 16:00 is
    // the conservative (later) instant.
    const close = zonedMicros(date, '16:00', 'America/New_York');
    for (const f of fields) {
      const value = numberField(row, f, file);
      ctx.sink.addObservation({
        series_id: `vega:sp500:${f}`,
        timestamp: close,
        period_start: null,
        available_at: close,
        value,
        available_at_basis: 'rule',
        source_ref: ref,
      });
    }
  }
  accountWholeFile(ctx, name, 'row', rows.length);
}

const MONTHS: Record<string, number> = {
  Jan: 1,
  Feb: 2,
  Mar: 3,
  Apr: 4,
  May: 5,
  Jun: 6,
  Jul: 7,
  Aug: 8,
  Sep: 9,
  Oct: 10,
  Nov: 11,
  Dec: 12,
};

/** Monthly closes of five stocks (vega `stocks.csv`, dates like "Jan 1 2000"); known by the month's end. */
export function readVegaStocks(ctx: ReadContext): void {
  const name = 'stocks.csv';
  const { text, file, sha256 } = readInput(ctx, name);
  const { rows } = parseSimpleCsv(text, file);
  const seen = new Set<string>();
  const ref = `sha256:${sha256.slice(0, 16)}`;
  for (const row of rows) {
    const symbol = row.fields.symbol;
    const m = /^([A-Z][a-z]{2}) (\d{1,2}) (\d{4})$/.exec(row.fields.date ?? '');
    const problem =
      m && MONTHS[m[1]]
        ? isoDateProblem(`${m[3]}-${String(MONTHS[m[1]]).padStart(2, '0')}-${m[2].padStart(2, '0')}`)
        : null;
    if (problem !== null) {
      throw new InputError(
        'CSV_BAD_DATE',
        `${file} line ${row.line}, field 'date': ${JSON.stringify(row.fields.date)} is not a calendar date (${problem})`,
        { context: { file, line: row.line, field: 'date', value: row.fields.date } },
      );
    }
    if (!m || !MONTHS[m[1]]) {
      throw new InputError(
        'CSV_BAD_DATE',
        `${file} line ${row.line}, field 'date': expected a date like "Jan 1 2000", got ${JSON.stringify(row.fields.date)}`,
        {
          context: { file, line: row.line, field: 'date', value: row.fields.date },
        },
      );
    }
    const value = numberField(row, 'price', file);
    const id = `vega:stocks:${symbol}`;
    if (!seen.has(id) && !SeriesId.safeParse(id).success) {
      throw new InputError(
        'CSV_BAD_SYMBOL',
        `${file} line ${row.line}, field 'symbol': ${printable(symbol ?? '')} cannot name a series (${
          hasControlChars(symbol ?? '')
            ? 'it contains a control character'
            : 'use letters, digits and . - ^ = only'
        })`,
        { context: { file, line: row.line, field: 'symbol', value: symbol } },
      );
    }
    if (!seen.has(id)) {
      seen.add(id);
      ctx.sink.addSeries({
        ...STATIC_REAL,
        series_id: id,
        source_key: `${name}#${symbol}`,
        title: `${symbol} monthly close`,
        unit: 'USD',
        frequency: 'M',
        scope: 'Individual',
        category: 'Equity',
        detail_category: 'Equity OHLCV Close',
        currency: 'USD',
        entity_id: symbol,
        entity_name: symbol,
      });
    }
    const ts = monthEndMicros(Number(m[3]), MONTHS[m[1]]);
    ctx.sink.addObservation({
      series_id: id,
      timestamp: ts,
      period_start: null,
      available_at: ts,
      value,
      available_at_basis: 'rule',
      source_ref: ref,
    });
  }
  accountWholeFile(ctx, name, 'row', rows.length);
}

/** 22 monthly BLS employment levels (vega `us-employment.csv`, thousands of persons). */
export function readVegaUsEmployment(ctx: ReadContext): void {
  const name = 'us-employment.csv';
  const { text, file, sha256 } = readInput(ctx, name);
  const { header, rows } = parseSimpleCsv(text, file);
  // nonfarm_change is the month-on-month difference of nonfarm, not a separate BLS series.
  const columns = header.filter((h) => h !== 'month' && h !== 'nonfarm_change');
  const ref = `sha256:${sha256.slice(0, 16)}`;
  for (const col of columns) {
    ctx.sink.addSeries({
      ...STATIC_REAL,
      series_id: `vega:us-employment:${slug(col)}`,
      source_key: `${name}#${col}`,
      title: `US employment, ${col.replaceAll('_', ' ')} (BLS CES, SA)`,
      unit: 'thousands of persons',
      frequency: 'M',
      scope: 'Country',
      category: 'Macro Indicators',
      detail_category: col === 'nonfarm' || col === 'private' ? 'Labor' : 'Labor By Industry',
      currency: null,
      seasonal_adjustment: 'SA',
    });
  }
  for (const row of rows) {
    const [y, mo] = monthOf(row.fields.month, file, row.line, 'month');
    const ts = monthEndMicros(y, mo);
    const avail = firstFridayNextMonthMicros(y, mo);
    for (const col of columns) {
      ctx.sink.addObservation({
        series_id: `vega:us-employment:${slug(col)}`,
        timestamp: ts,
        period_start: zonedMicros(row.fields.month, '00:00', 'America/New_York'),
        available_at: avail,
        value: numberField(row, col, file),
        available_at_basis: 'rule',
        source_ref: ref,
      });
    }
  }
  accountWholeFile(ctx, name, 'row', rows.length);
}

function monthOf(text: string | undefined, file: string, line: number, field: string): [number, number] {
  try {
    const [y, m] = parseIsoDate(text ?? '');
    return [y, m];
  } catch (cause) {
    throw new InputError(
      'CSV_BAD_DATE',
      `${file} line ${line}, field '${field}': expected YYYY-MM-DD, got ${JSON.stringify(text ?? null)}`,
      {
        context: { file, line, field, value: text },
        cause,
      },
    );
  }
}

/** 14 monthly unemployment rates by industry (vega `unemployment-across-industries.json`, percent). */
export function readVegaUnemployment(ctx: ReadContext): void {
  const name = 'unemployment-across-industries.json';
  const { text, file, sha256 } = readInput(ctx, name);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    throw new InputError('JSON_INVALID', `${file}: not JSON (${(cause as Error).message})`, { cause });
  }
  if (!Array.isArray(data)) throw new InputError('JSON_INVALID', `${file}: expected an array of rows`);
  const ref = `sha256:${sha256.slice(0, 16)}`;
  const seen = new Set<string>();
  data.forEach((row: Record<string, unknown>, i) => {
    const where = `${file} row ${i}`;
    const series = row.series;
    const y = row.year;
    const m = row.month;
    const rate = row.rate;
    if (
      typeof series !== 'string' ||
      !Number.isInteger(y) ||
      !Number.isInteger(m) ||
      (m as number) < 1 ||
      (m as number) > 12
    ) {
      throw new InputError(
        'JSON_BAD_ROW',
        `${where}: expected {series, year, month 1-12, rate}, got ${JSON.stringify(row)}`,
        {
          context: { file, row: i, value: row },
        },
      );
    }
    if (typeof rate !== 'number' || implausibleValueProblem(rate) !== null) {
      throw new InputError(
        'JSON_BAD_NUMBER',
        `${where}, field 'rate': expected a number${typeof rate === 'number' && Number.isFinite(rate) ? ' below ±1e15' : ''}, got ${JSON.stringify(rate)}`,
        {
          context: { file, row: i, field: 'rate', value: rate },
        },
      );
    }
    const id = `vega:unemployment:${slug(series)}`;
    if (!seen.has(id)) {
      seen.add(id);
      const s: SeriesInput = {
        ...STATIC_REAL,
        series_id: id,
        source_key: `${name}#${series}`,
        title: `Unemployment rate, ${series} (BLS, NSA)`,
        unit: 'percent',
        frequency: 'M',
        scope: 'Country',
        category: 'Macro Indicators',
        detail_category: 'Labor By Industry',
        currency: null,
        seasonal_adjustment: 'NSA',
      };
      ctx.sink.addSeries(s);
    }
    const yy = y as number;
    const mm = m as number;
    ctx.sink.addObservation({
      series_id: id,
      timestamp: monthEndMicros(yy, mm),
      period_start: zonedMicros(`${yy}-${String(mm).padStart(2, '0')}-01`, '00:00', 'America/New_York'),
      available_at: firstFridayNextMonthMicros(yy, mm),
      value: rate,
      available_at_basis: 'rule',
      source_ref: ref,
    });
  });
  accountWholeFile(ctx, name, 'row', data.length);
}
