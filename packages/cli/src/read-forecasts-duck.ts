import { Duck, quoteIdent, quoteLiteral, streamNumbers } from '@asof/duck';
import {
  checkForecastBounds,
  checkForecastsReadable,
  type ForecastTable,
  isSampleColumn,
  quantileLevelOf,
  readForecasts,
} from '@asof/scoring';

/** Column types DuckDB reads as a forecast number exactly as the scorer's own reader does (Number(v)). */
const NUMERIC = /^(DOUBLE|FLOAT|REAL|TINYINT|SMALLINT|INTEGER|BIGINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT)$/;
/** Origin types written as the scorer's reader writes them: text as is, instants as toISOString (ms, Z). */
const ORIGIN_INSTANT = /^(TIMESTAMP WITH TIME ZONE|TIMESTAMP|TIMESTAMP_MS|TIMESTAMP_S|TIMESTAMP_NS|DATE)$/;

const isQuantile = (c: string) => quantileLevelOf(c) !== null;
const isSample = isSampleColumn;

/**
 * Reads a forecasts file for `asof score` and `asof run`: a Parquet file through DuckDB, its text columns
 * dictionary-coded and its numbers streamed as typed arrays (no value is ever a JavaScript object), which
 * is what the scorer's own pure-JavaScript reader (@asof/scoring readForecasts, hyparquet) spends most of a
 * large file's read on (issue 51 item 7: 16 s for the 1.4M-row baselines file of the default split, more
 * than its scoring). The table is the one readForecasts returns: the same codes in the same first-seen
 * order, the same origin text, NaN for NULL, the same bound on values; a CSV, or a Parquet column of a type DuckDB would read
 * differently (numbers as text, decimals), is read by readForecasts itself, which checks every value.
 */
export async function readForecastsFast(path: string): Promise<ForecastTable> {
  if (!/\.parquet$/i.test(path)) return readForecasts(path);
  // The same checks, and the same errors, as readForecasts: a file, the header, at least one row.
  const { columns } = await checkForecastsReadable(path);
  const duck = await Duck.open({ threads: 2 });
  try {
    const file = `read_parquet(${quoteLiteral(path)}, file_row_number = true)`;
    const types = new Map(
      (await duck.all<{ column_name: string; column_type: string }>(`DESCRIBE SELECT * FROM ${file}`)).map(
        (r) => [r.column_name, r.column_type],
      ),
    );
    const numbers = ['step', 'value', ...columns.filter((c) => isQuantile(c) || isSample(c))];
    const text = ['model', 'series_id'];
    const originType = types.get('origin') ?? '';
    if (
      !numbers.every((c) => NUMERIC.test(types.get(c) ?? '')) ||
      !text.every((c) => types.get(c) === 'VARCHAR') ||
      !(originType === 'VARCHAR' || ORIGIN_INSTANT.test(originType))
    ) {
      return readForecasts(path);
    }
    // A text column's value as the scorer's reader has it: NULL is empty text; an instant is toISOString of
    // it in milliseconds (the scorer's reader truncates microseconds, as Date does).
    const textOf = (c: string, table: string) =>
      c === 'origin' && originType !== 'VARCHAR'
        ? `coalesce(strftime(${table}origin::TIMESTAMP, '%Y-%m-%dT%H:%M:%S.%gZ'), '')`
        : `coalesce(${table}${c}, '')`;
    // Codes in order of first appearance, as the scorer's reader numbers them: each text column's distinct
    // values (a scan of that column only), then one pass over the file joins them in. Its rows arrive in
    // any order and are placed by their file row number, so no sort of the whole file is needed.
    const dictionary: Record<string, string[]> = {};
    for (const c of ['model', 'series_id', 'origin']) {
      await duck.run(
        `CREATE TEMP TABLE dict_${c} AS
         SELECT text, (row_number() OVER (ORDER BY first) - 1)::DOUBLE AS code
         FROM (SELECT ${textOf(c, '')} AS text, min(file_row_number) AS first FROM ${file} GROUP BY text)`,
      );
      dictionary[c] = (await duck.all<{ text: string }>(`SELECT text FROM dict_${c} ORDER BY code`)).map(
        (r) => r.text,
      );
    }
    const rows = Number((await duck.all<{ n: bigint }>(`SELECT count(*) AS n FROM ${file}`))[0].n);
    const codes = {
      model: new Uint32Array(rows),
      series_id: new Uint32Array(rows),
      origin: new Uint32Array(rows),
    };
    const values = numbers.map(() => new Float64Array(rows));
    let seen = 0;
    // NULL is NaN, as the scorer's reader has it; written here so that no column has a NULL and every
    // chunk reaches JavaScript as the vector's own Float64Array (streamNumbers' fast path).
    await streamNumbers(
      duck,
      `SELECT f.file_row_number::DOUBLE, m.code, s.code, o.code,
         ${numbers.map((c) => `coalesce(f.${quoteIdent(c)}::DOUBLE, 'NaN'::DOUBLE)`).join(', ')}
       FROM ${file} AS f
       JOIN dict_model AS m ON m.text = ${textOf('model', 'f.')}
       JOIN dict_series_id AS s ON s.text = ${textOf('series_id', 'f.')}
       JOIN dict_origin AS o ON o.text = ${textOf('origin', 'f.')}`,
      undefined,
      (cols, n) => {
        const [rn, model, series, origin] = cols;
        for (let i = 0; i < n; i++) {
          const r = rn[i];
          codes.model[r] = model[i];
          codes.series_id[r] = series[i];
          codes.origin[r] = origin[i];
        }
        for (let c = 0; c < numbers.length; c++) {
          const from = cols[4 + c];
          const to = values[c];
          for (let i = 0; i < n; i++) to[rn[i]] = from[i];
        }
        seen += n;
      },
    );
    if (seen !== rows) throw new Error(`${path}: read ${seen} of ${rows} rows (a forecasts reader bug)`);
    const column = (name: string) => values[numbers.indexOf(name)];
    const samples = columns.filter(isSample).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
    const table: ForecastTable = {
      source: path,
      model: { codes: codes.model, dictionary: dictionary.model },
      series_id: { codes: codes.series_id, dictionary: dictionary.series_id },
      origin: { codes: codes.origin, dictionary: dictionary.origin },
      step: column('step'),
      value: column('value'),
      quantiles: columns
        .filter(isQuantile)
        .map((name) => ({ name, level: quantileLevelOf(name)!, values: column(name) })),
      samples: samples.map((name) => ({ name, values: column(name) })),
      firstRow: 1,
    };
    // The bound readForecasts puts on every value as it reads it (±1e15, docs/decisions/0058), with its error.
    checkForecastBounds(table);
    return table;
  } finally {
    duck.close();
  }
}
