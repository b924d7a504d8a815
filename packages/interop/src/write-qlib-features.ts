import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BOOLEAN, type Duck, loadQuery, VARCHAR } from '@asof/duck';
import type { QlibPitSeries, QlibSeries } from './choose-qlib-series.ts';
import { type Float32Report, noteFloat32 } from './float32-report.ts';
import { SQL_DIR, stageLocalDates } from './stage-universe.ts';

/** A file written into the Qlib folder: its path (with /), manifest table and rows. */
export interface QlibFile {
  path: string;
  table: string;
  rows: number;
}

/** Stages qlib_series and qlib_pit_series, the tables the Qlib SQL models join on. */
export async function stageQlibSeries(
  duck: Duck,
  features: readonly QlibSeries[],
  pit: readonly QlibPitSeries[],
): Promise<void> {
  await duck.run('CREATE TABLE qlib_series (series_id VARCHAR, symbol VARCHAR, field VARCHAR)');
  await duck.appendColumns(
    'qlib_series',
    [VARCHAR, VARCHAR, VARCHAR],
    [features.map((s) => s.series_id), features.map((s) => s.symbol), features.map((s) => s.field)],
  );
  await duck.run(
    'CREATE TABLE qlib_pit_series (series_id VARCHAR, symbol VARCHAR, field VARCHAR, quarterly BOOLEAN)',
  );
  await duck.appendColumns(
    'qlib_pit_series',
    [VARCHAR, VARCHAR, VARCHAR, BOOLEAN],
    [
      pit.map((s) => s.series_id),
      pit.map((s) => s.symbol),
      pit.map((s) => s.field),
      pit.map((s) => s.quarterly),
    ],
  );
}

/**
 * Qlib's daily store as its dump_bin writes it (docs: qlib.readthedocs.io "Data Layer"):
 * `calendars/day.txt` (every New York date any exported price series has, one a line),
 * `instruments/all.txt` (`CODE<TAB>first date<TAB>last date`), and per symbol and field
 * `features/<symbol>/<field>.day.bin`: little-endian float32, element 0 the symbol's first calendar
 * index, then one value per calendar day to the symbol's last, NaN where the field has no value. Every
 * field of a symbol spans the symbol's range, as dump_bin's per-symbol frame does.
 */
export async function writeQlibFeatures(
  duck: Duck,
  dir: string,
  features: readonly QlibSeries[],
  report: Float32Report,
): Promise<QlibFile[]> {
  await stageLocalDates(
    duck,
    'SELECT v.timestamp_us AS us FROM latest_values AS v JOIN qlib_series USING (series_id)',
  );
  await duck.run(
    `CREATE TABLE qlib_calendar AS
     SELECT day, (row_number() OVER (ORDER BY day) - 1)::INTEGER AS day_index FROM (SELECT DISTINCT day FROM local_dates)`,
  );
  const calendar = (await duck.all<{ day: string }>('SELECT day FROM qlib_calendar ORDER BY day_index')).map(
    (r) => r.day,
  );
  const files: QlibFile[] = [];
  mkdirSync(join(dir, 'calendars'), { recursive: true });
  writeFileSync(join(dir, 'calendars', 'day.txt'), calendar.map((d) => `${d}\n`).join(''));
  files.push({ path: 'calendars/day.txt', table: 'qlib_calendar', rows: calendar.length });
  const rows = await duck.all<{ symbol: string; field: string; day_index: number; value: number }>(
    loadQuery(SQL_DIR, 'qlib_features'),
  );
  const bySymbol = new Map<string, Map<string, Map<number, number>>>();
  for (const r of rows) {
    const fields = bySymbol.get(r.symbol) ?? new Map<string, Map<number, number>>();
    bySymbol.set(r.symbol, fields);
    const values = fields.get(r.field) ?? new Map<number, number>();
    fields.set(r.field, values);
    values.set(r.day_index, r.value);
  }
  const codes = new Map(features.map((s) => [s.symbol, s.code]));
  const instruments: string[] = [];
  for (const [symbol, fields] of [...bySymbol].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const days = [...fields.values()].flatMap((v) => [...v.keys()]);
    const start = Math.min(...days);
    const end = Math.max(...days);
    instruments.push(`${codes.get(symbol)}\t${calendar[start]}\t${calendar[end]}\n`);
    mkdirSync(join(dir, 'features', symbol), { recursive: true });
    for (const [field, values] of [...fields].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const buffer = Buffer.alloc(4 * (end - start + 2));
      buffer.writeFloatLE(start, 0);
      for (let i = start; i <= end; i++) {
        const v = values.get(i) ?? Number.NaN;
        buffer.writeFloatLE(v, 4 * (i - start + 1));
        noteFloat32(report, v, () => `${symbol} ${field} ${calendar[i]}`);
      }
      const path = `features/${symbol}/${field}.day.bin`;
      writeFileSync(join(dir, ...path.split('/')), buffer);
      files.push({ path, table: 'qlib_feature', rows: end - start + 1 });
    }
  }
  mkdirSync(join(dir, 'instruments'), { recursive: true });
  writeFileSync(join(dir, 'instruments', 'all.txt'), instruments.join(''));
  files.push({ path: 'instruments/all.txt', table: 'qlib_instruments', rows: instruments.length });
  return files;
}
