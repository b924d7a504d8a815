import { type Duck, type Params, quoteLiteral } from '@asof/duck';
import { InputError, requireKnownNames } from '@asof/schema';

/** Which series a split takes from its parent (all when every list is empty or absent). */
export interface SeriesFilters {
  /** series_id patterns (GLOB: `*`, `?`, `[…]`), e.g. `syn:px:EQ00*:close`. */
  series?: readonly string[];
  /** Taxonomy units `Scope/Category/Detail category/Frequency`, e.g. `Individual/Equity/Stock/BD`. */
  units?: readonly string[];
  /** Frequencies, e.g. `M`, `Q`. */
  frequencies?: readonly string[];
}

/** The filters as they are recorded in the split's config (absent when none is given). */
export function seriesFilterConfig(f: SeriesFilters): Record<string, string[]> | null {
  const out: Record<string, string[]> = {};
  if (f.series?.length) out.series = [...f.series];
  if (f.units?.length) out.units = [...f.units];
  if (f.frequencies?.length) out.frequencies = [...f.frequencies];
  return Object.keys(out).length ? out : null;
}

const UNIT = `scope || '/' || category || '/' || detail_category || '/' || frequency`;

/** A WHERE clause over series.parquet columns with its bound values (one `$name` per value). */
export function seriesFilterSql(f: SeriesFilters): { sql: string; params: Params } {
  const params: Params = {};
  const any = (values: readonly string[] | undefined, prefix: string, test: (p: string) => string) => {
    if (!values?.length) return 'true';
    return `(${values
      .map((v, i) => {
        params[`${prefix}${i}`] = v;
        return test(`$${prefix}${i}`);
      })
      .join(' OR ')})`;
  };
  const sql = [
    any(f.series, 'series_glob_', (p) => `series_id GLOB ${p}`),
    any(f.units, 'unit_', (p) => `${UNIT} = ${p}`),
    any(f.frequencies, 'frequency_', (p) => `frequency = ${p}`),
  ].join(' AND ');
  return { sql, params };
}

/**
 * Refuses a `--series` (id or glob) or `--unit` that names nothing in the parent, with the nearest ids or
 * units: a typo is told apart from a filter combination that happens to keep nothing (refuseEmptyFilter).
 */
export async function requireFilterNames(
  duck: Duck,
  seriesFile: string,
  f: SeriesFilters,
  manifestPath: string,
): Promise<void> {
  const from = `read_parquet(${quoteLiteral(seriesFile)})`;
  if (f.series?.length) {
    const ids = await duck.all<{ id: string }>(`SELECT series_id AS id FROM ${from} ORDER BY id`);
    requireKnownNames(
      f.series,
      ids.map((r) => r.id),
      {
        flag: '--series',
        kind: 'series',
        where: manifestPath,
        code: 'SPLIT_SERIES_UNKNOWN',
        listHint:
          "list series with 'asof series --data <universe folder> --search TEXT'; globs as 'syn:fred:*'",
        globs: true,
      },
    );
  }
  if (f.units?.length) {
    const units = await duck.all<{ u: string }>(`SELECT DISTINCT ${UNIT} AS u FROM ${from} ORDER BY u`);
    requireKnownNames(
      f.units,
      units.map((r) => r.u),
      {
        flag: '--unit',
        kind: 'taxonomy unit',
        where: manifestPath,
        code: 'SPLIT_UNIT_UNKNOWN',
        listHint:
          "a unit is Scope/Category/Detail category/Frequency; list a universe's units with 'asof taxonomy --coverage <universe>/manifest.json'",
      },
    );
  }
}

/** Throws the one-line error for filters that keep no series, naming what does exist. */
export async function refuseEmptyFilter(
  duck: Duck,
  seriesFile: string,
  f: SeriesFilters,
  manifestPath: string,
): Promise<never> {
  const from = `read_parquet(${quoteLiteral(seriesFile)})`;
  const units = (await duck.all<{ u: string }>(`SELECT DISTINCT ${UNIT} AS u FROM ${from} ORDER BY u`)).map(
    (r) => r.u,
  );
  const freqs = (await duck.all<{ f: string }>(`SELECT DISTINCT frequency AS f FROM ${from} ORDER BY f`)).map(
    (r) => r.f,
  );
  const given = Object.entries(seriesFilterConfig(f) ?? {})
    .map(
      ([k, v]) => `--${k === 'frequencies' ? 'frequency' : k === 'units' ? 'unit' : 'series'} ${v.join(',')}`,
    )
    .join(' ');
  throw new InputError(
    'SPLIT_FILTER_EMPTY',
    `${given}: no series of ${manifestPath} match; units there: ${units.slice(0, 8).join(', ')}${units.length > 8 ? `, … (${units.length}; see 'asof taxonomy --coverage')` : ''}; frequencies: ${freqs.join(', ')}; list series with 'asof series --data <universe>'`,
    { context: { file: manifestPath, value: given } },
  );
}
