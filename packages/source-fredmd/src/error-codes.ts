import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/source-fredmd's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const SOURCE_FREDMD_ERRORS = {
  FREDMD_AMBIGUOUS_VINTAGE: {
    exit: 2,
    when: 'a FRED-MD/QD file name holds several YYYY-MM vintages',
    fix: 'name each file with exactly one YYYY-MM (e.g. 2020-07.csv)',
  },
  FREDMD_BAD_CSV: {
    exit: 2,
    when: 'a FRED-MD/QD vintage is not a readable CSV',
    fix: 're-download the vintage',
  },
  FREDMD_BAD_DATE: {
    exit: 2,
    when: 'a FRED-MD/QD row has no sasdate or one that is not a date',
    fix: 'give the row its date (M/D/YYYY), or re-download the vintage',
  },
  FREDMD_BAD_HEADER: {
    exit: 2,
    when: "a FRED-MD/QD file's header is not a vintage file's (first column sasdate)",
    fix: 'pass FRED-MD/FRED-QD vintage files as McCracken & Ng publish them',
  },
  FREDMD_BAD_SERIES: {
    exit: 2,
    when: 'a FRED-MD/QD column produced a series that does not meet the series schema',
    fix: "check the column's name and values",
  },
  FREDMD_BAD_VALUES: {
    exit: 'warning',
    when: 'FRED-MD/QD value cells are not numbers and were dropped',
    fix: 'nothing if expected; re-download the vintage otherwise',
  },
  FREDMD_BAD_VINTAGE: {
    exit: 2,
    when: 'a FRED-MD/QD vintage is not YYYY-MM',
    fix: 'name the file after its vintage month (2020-07.csv)',
  },
  FREDMD_DUPLICATE_COLUMN: { exit: 2, when: 'a FRED-MD/QD file has a column twice', fix: 'keep one' },
  FREDMD_DUPLICATE_DATE: { exit: 2, when: 'a FRED-MD/QD file has two rows for one period', fix: 'keep one' },
  FREDMD_DUPLICATE_VINTAGE: {
    exit: 2,
    when: 'two FRED-MD/QD files are the same vintage',
    fix: 'keep one (or rename the file whose name states the wrong month)',
  },
  FREDMD_EMPTY_FILE: { exit: 2, when: 'a FRED-MD/QD file is empty', fix: 're-download the vintage' },
  FREDMD_EXTRA_CELL: {
    exit: 2,
    when: 'a FRED-MD/QD row has more cells than the header',
    fix: 're-download the vintage',
  },
  FREDMD_NO_FILES: {
    exit: 2,
    when: 'the FRED-MD raw folder holds no FRED-MD/FRED-QD CSV',
    fix: 'add the vintage CSVs (header row starting with sasdate)',
  },
  FREDMD_NO_VINTAGE: {
    exit: 2,
    when: 'a FRED-MD/QD file name states no vintage',
    fix: 'rename the file to hold its YYYY-MM, or give fredmd.vintage in the pipeline',
  },
  FREDMD_RAW_DIR: {
    exit: 2,
    when: 'the FRED-MD raw folder cannot be read',
    fix: 'pass a folder of FRED-MD/FRED-QD CSV files',
  },
  FREDMD_RECONSTRUCTED_VINTAGES: {
    exit: 'warning',
    when: 'FRED-MD vintages before 2015-01 were reconstructed later by McCracken & Ng',
    fix: 'nothing: their available_at applies the vintage rule as if posted then (docs/decisions/0042)',
  },
  FREDMD_SERIES_ID_CLASH: {
    exit: 2,
    when: 'two FRED-MD/QD columns become the same series id',
    fix: 'rename one of them',
  },
  FREDMD_SKIPPED_FILES: {
    exit: 'warning',
    when: 'files in the FRED-MD raw folder are not FRED-MD/QD CSVs and were not read',
    fix: 'save workbooks as CSV; nothing if the files are not vintages',
  },
  FREDMD_TCODE_CHANGED: {
    exit: 'warning',
    when: "a series' transformation code changed between vintages",
    fix: 'nothing: the title gives the latest',
  },
  FREDMD_UNMAPPED_SERIES: {
    exit: 'warning',
    when: 'FRED-MD/QD series placed by no catalog row were not ingested',
    fix: 'add rows to packages/taxonomy/registry/macro-panels.tsv to ingest them',
  },
  FREDMD_VALUES_WITHDRAWN: {
    exit: 'warning',
    when: 'FRED-MD/QD values published in one vintage are blank in a later one; withdrawal rows were emitted',
    fix: 'nothing: as-of views from that vintage on have no value there',
  },
  FREDMD_VINTAGE_NEEDS_ONE_FILE: {
    exit: 2,
    when: 'fredmd.vintage is set but the raw folder holds several CSVs',
    fix: 'put that file alone in its raw_dir, or drop "vintage" and name files by vintage',
  },
  FREDMD_XLSX: {
    exit: 2,
    when: 'the FRED-MD raw folder holds a workbook and no CSV',
    fix: 'save the sheet as CSV keeping the YYYY-MM in its name, then remove the workbook',
  },
} as const satisfies ErrorCatalogue;
