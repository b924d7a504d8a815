import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/source-fred's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const SOURCE_FRED_ERRORS = {
  FRED_API_ERROR: {
    exit: 1,
    when: 'FRED answered with its error JSON (bad series id, bad key, rate limit…)',
    fix: 'follow the hint in the message (check the id, the key, or wait a minute)',
  },
  FRED_BAD_API_KEY: {
    exit: 2,
    when: 'ASOF_FRED_API_KEY is not 32 lower-case letters and digits',
    fix: 'set it to your FRED API key',
  },
  FRED_BAD_CSV: { exit: 2, when: 'a fredgraph CSV is empty or unreadable', fix: 'download the series again' },
  FRED_BAD_DOWNLOAD_DATE: {
    exit: 2,
    when: 'a FRED download date is not YYYY-MM-DD or YYYY-MM',
    fix: 'fix the date in the sidecar or file name',
  },
  FRED_BAD_JSON: { exit: 2, when: 'a FRED response file is not JSON', fix: 're-download it' },
  FRED_BAD_LAG_RULE: { exit: 2, when: "a publication-lag rule's time is not HH:MM", fix: 'fix the rule' },
  FRED_BAD_PAYLOAD: {
    exit: 2,
    when: 'a FRED API response does not match the shape asof expects',
    fix: 'download it again',
  },
  FRED_BAD_PERIOD_DATE: {
    exit: 2,
    when: 'a monthly/quarterly/annual FRED value is not dated the first day of its period',
    fix: "check the series' frequency",
  },
  FRED_BAD_SERIES: {
    exit: 2,
    when: 'a FRED series produced a record that does not meet the series schema',
    fix: "check the series' mapping and metadata",
  },
  FRED_BAD_SIDECAR: {
    exit: 2,
    when: "a FRED .meta.json sidecar's series_id is not a FRED id",
    fix: 'fix the sidecar',
  },
  FRED_BAD_VALUE: {
    exit: 2,
    when: 'a FRED value is neither a number nor "." (missing)',
    fix: 're-download the file unedited',
  },
  FRED_CATALOG_INCOMPLETE: {
    exit: 1,
    when: 'a FRED catalog run had series that failed',
    fix: 'run again, or pass --allow-partial to keep the rest',
  },
  FRED_CATALOG_PARTIAL: {
    exit: 'warning',
    when: 'a FRED catalog run with --allow-partial left out the series that failed',
    fix: 'run again for the missing series',
  },
  FRED_CONFLICTING_VINTAGES: {
    exit: 2,
    when: 'two FRED responses give one date two values in one vintage',
    fix: 'keep the responses of one series and units',
  },
  FRED_DOWNLOADS_IGNORED: {
    exit: 'warning',
    when: 'ALFRED vintages were present, so downloads without vintages were not used',
    fix: 'nothing: the vintages are the better record',
  },
  FRED_DUPLICATE_DOWNLOAD_DATE: {
    exit: 2,
    when: 'two downloads of one FRED series share a download date',
    fix: 'keep one, or give the exact download days',
  },
  FRED_DUPLICATE_PERIOD: {
    exit: 2,
    when: 'one undated FRED download has two values for one period',
    fix: 'download the series again',
  },
  FRED_EMPTY_CSV: {
    exit: 2,
    when: 'a fredgraph CSV has a header but no rows',
    fix: 'download the series again (check its id and date range)',
  },
  FRED_NO_API_KEY: {
    exit: 2,
    when: 'ASOF_FRED_API_KEY is not set for a live FRED run',
    fix: 'export ASOF_FRED_API_KEY (a free key from fred.stlouisfed.org), or use --raw-dir / --offline',
  },
  FRED_NO_UNITS: {
    exit: 2,
    when: 'a FRED series has no units from the download, the mapping or the catalog',
    fix: 'give unit in the mapping, or add the series to registry/fred-catalog.tsv',
  },
  FRED_RAW_DIR: {
    exit: 2,
    when: 'the FRED raw folder cannot be read',
    fix: 'pass a folder of FRED JSON responses and fredgraph CSVs',
  },
  FRED_SERIES_FAILED: {
    exit: 'warning',
    when: 'a FRED series could not be fetched in a catalog run; it is left out',
    fix: 'run again for that series',
  },
  FRED_SERIES_NOT_IN_RAW_DIR: {
    exit: 2,
    when: 'requested FRED series have no observations among the raw files',
    fix: 'add their responses or CSVs',
  },
  FRED_STATIC_SERIES: {
    exit: 'warning',
    when: 'FRED series without ALFRED vintages got available_at from a publication rule',
    fix: 'nothing: add ALFRED vintages for recorded release times',
  },
  FRED_UNDATED_DOWNLOADS: {
    exit: 2,
    when: 'several downloads of a FRED series, some without a download date',
    fix: 'give each file its download date (sidecar, file name or options.downloadDates)',
  },
  FRED_UNKNOWN_FREQUENCY: {
    exit: 2,
    when: "a FRED series' frequency cannot be inferred from its dates",
    fix: 'give the series metadata or a frequency in the options',
  },
  FRED_UNKNOWN_SERIES_FILE: {
    exit: 2,
    when: 'a FRED observations response does not name its series',
    fix: 'name the file fred_api_series_observations_<ID>_….json or add a .meta.json with series_id',
  },
  FRED_UNMAPPED_SERIES: {
    exit: 2,
    when: "a FRED series is in neither the taxonomy's FRED catalog nor the mapping",
    fix: 'add a catalog row or pass a mapping (scope, category, detail_category)',
  },
  FRED_UNSUPPORTED_FREQUENCY: {
    exit: 2,
    when: "a FRED series' frequency is not D, W, M, Q or A",
    fix: 'pick a series at a supported frequency, or pass frequency_aggregation',
  },
  FRED_VALUES_WITHDRAWN: {
    exit: 'warning',
    when: 'vintages withdrew published values; withdrawal rows were emitted',
    fix: 'nothing: as-of views from those vintages on have no value there',
  },
} as const satisfies ErrorCatalogue;
