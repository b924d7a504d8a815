import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/source-rtdsm's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const SOURCE_RTDSM_ERRORS = {
  RTDSM_BAD_CSV: { exit: 2, when: 'an RTDSM file is not a readable CSV', fix: 're-export it as CSV' },
  RTDSM_BAD_DATE: {
    exit: 2,
    when: "an RTDSM row's DATE is not like 1947:Q1 or 1947:01",
    fix: 'fix the row, or re-export the file',
  },
  RTDSM_BAD_HEADER: {
    exit: 2,
    when: "an RTDSM file's first column is not DATE",
    fix: 'pass RTDSM files in the wide layout the Philadelphia Fed publishes',
  },
  RTDSM_BAD_SERIES: {
    exit: 2,
    when: 'an RTDSM variable produced a series that does not meet the series schema',
    fix: "check the variable's mapping in registry/macro-panels.tsv",
  },
  RTDSM_BAD_VALUES: {
    exit: 'warning',
    when: 'RTDSM value cells are not numbers and were dropped',
    fix: 'nothing if expected; re-export the file otherwise',
  },
  RTDSM_BAD_VINTAGE_COLUMN: {
    exit: 2,
    when: 'an RTDSM header column is not a vintage column like ROUTPUT65Q4 or PCPI98M11',
    fix: 'use the wide layout the Philadelphia Fed publishes',
  },
  RTDSM_DUPLICATE_DATE: { exit: 2, when: 'an RTDSM file has two rows for one date', fix: 'keep one' },
  RTDSM_DUPLICATE_VINTAGE: {
    exit: 2,
    when: 'one RTDSM vintage column is in two files',
    fix: 'keep it in one file',
  },
  RTDSM_EMPTY_FILE: { exit: 2, when: 'an RTDSM file is empty', fix: 're-export it' },
  RTDSM_EXTRA_CELL: {
    exit: 2,
    when: 'an RTDSM row has more cells than the header',
    fix: 're-export the file',
  },
  RTDSM_FREQUENCY_CLASH: {
    exit: 2,
    when: 'two RTDSM files give one variable observations of different frequencies',
    fix: 'keep one of the files',
  },
  RTDSM_MIXED_FREQUENCY: {
    exit: 2,
    when: 'an RTDSM file mixes monthly and quarterly observation dates',
    fix: 'keep one frequency per file',
  },
  RTDSM_NO_FILES: {
    exit: 2,
    when: 'the RTDSM raw folder holds no RTDSM CSV',
    fix: 'add the RTDSM CSVs (DATE then one column per vintage)',
  },
  RTDSM_RAW_DIR: {
    exit: 2,
    when: 'the RTDSM raw folder cannot be read',
    fix: 'pass a folder of RTDSM CSV files',
  },
  RTDSM_SKIPPED_FILES: {
    exit: 'warning',
    when: 'files in the RTDSM raw folder are not RTDSM CSVs and were not read',
    fix: 'save workbooks as CSV; nothing if the files are not RTDSM tables',
  },
  RTDSM_UNMAPPED_SERIES: {
    exit: 'warning',
    when: 'RTDSM variables placed by no macro-panels.tsv row were not ingested',
    fix: 'add rows to packages/taxonomy/registry/macro-panels.tsv to ingest them',
  },
  RTDSM_VALUES_WITHDRAWN: {
    exit: 'warning',
    when: 'RTDSM values published in one vintage are #N/A in a later one; withdrawal rows were emitted',
    fix: 'nothing: as-of views from that vintage on have no value there',
  },
  RTDSM_XLSX: {
    exit: 2,
    when: 'the RTDSM raw folder holds a workbook and no CSV',
    fix: 'save the sheet as CSV, then remove the workbook',
  },
} as const satisfies ErrorCatalogue;
