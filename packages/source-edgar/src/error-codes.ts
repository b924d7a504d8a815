import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/source-edgar's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const SOURCE_EDGAR_ERRORS = {
  EDGAR_BAD_ACCEPTANCE_TIME: {
    exit: 2,
    when: "a filing's acceptanceDateTime is not an instant",
    fix: 're-download the submissions file',
  },
  EDGAR_BAD_COMPANYFACTS: {
    exit: 2,
    when: 'a companyfacts file does not match the SEC companyfacts shape',
    fix: 're-download it',
  },
  EDGAR_BAD_FILING_DATE: {
    exit: 2,
    when: "a filing's filingDate in a submissions file is not a calendar date",
    fix: 're-download the submissions file',
  },
  EDGAR_BAD_JSON: {
    exit: 2,
    when: 'a file in the EDGAR raw folder is not JSON (or not gzip of JSON)',
    fix: 're-download it or remove it',
  },
  EDGAR_BAD_REPORT_DATE: {
    exit: 2,
    when: "a filing's reportDate in a submissions file is not a calendar date",
    fix: 're-download the submissions file',
  },
  EDGAR_BAD_SUBMISSIONS: {
    exit: 2,
    when: 'a submissions file does not match the SEC submissions shape',
    fix: 're-download it',
  },
  EDGAR_BAD_SUBMISSIONS_PAGE: {
    exit: 2,
    when: 'a submissions overflow page does not match the SEC shape',
    fix: 're-download it',
  },
  EDGAR_BAD_TICKERS: {
    exit: 2,
    when: 'company_tickers.json does not match the SEC shape',
    fix: 're-download it',
  },
  EDGAR_COMPANY_RENAMED: {
    exit: 'warning',
    when: "the downloads name one CIK's company differently",
    fix: 'nothing: series carry the newest name, their ids the CIK',
  },
  EDGAR_COMPANY_SKIPPED: {
    exit: 'warning',
    when: 'a company was skipped (no companyfacts at the SEC, or not readable)',
    fix: 'check the ticker; nothing if it is expected',
  },
  EDGAR_CONFLICTING_DUPLICATES: {
    exit: 'warning',
    when: 'filings reported two values for one concept and period; the first listed was kept',
    fix: 'nothing if expected',
  },
  EDGAR_FILED_BEFORE_PERIOD_END: {
    exit: 'warning',
    when: 'values were filed before their period ended; they are made available at the period end',
    fix: 'nothing if expected',
  },
  EDGAR_NO_TICKERS_FILE: {
    exit: 2,
    when: '--tickers needs company_tickers.json in the raw folder to find CIKs',
    fix: 'add company_tickers.json or drop --tickers',
  },
  EDGAR_RAW_DIR: {
    exit: 2,
    when: 'the EDGAR raw folder cannot be read',
    fix: 'pass a folder of SEC JSON files',
  },
  EDGAR_RAW_FILE_IGNORED: {
    exit: 'warning',
    when: 'files in the EDGAR raw folder are not SEC JSON and were not read',
    fix: 'nothing if expected; remove them to silence the warning',
  },
  EDGAR_RAW_MISSING: {
    exit: 2,
    when: 'the EDGAR raw folder has no companyfacts file for a requested company',
    fix: 'add its companyfacts file or drop it from --tickers',
  },
  EDGAR_SUBMISSIONS_CIK_MISMATCH: {
    exit: 'warning',
    when: "a submissions file's CIK differs from its companyfacts file; it is ignored",
    fix: "replace the submissions file with the company's own",
  },
  EDGAR_SUBMISSIONS_DUPLICATE: {
    exit: 'warning',
    when: 'the raw folder holds two submissions files for one CIK; one is ignored',
    fix: 'keep one of them',
  },
  EDGAR_SUBMISSIONS_MISSING: {
    exit: 'warning',
    when: 'a company has no submissions file: facts are dated by filing date at 23:59:59 ET',
    fix: 'add its submissions file for acceptance times',
  },
  EDGAR_SUBMISSIONS_PAGE_MISSING: {
    exit: 'warning',
    when: 'overflow pages a submissions file lists are missing',
    fix: 'add the overflow pages for acceptance times',
  },
  EDGAR_SUBMISSIONS_RAGGED: {
    exit: 2,
    when: "a submissions file's columns have different lengths (truncated or edited)",
    fix: 're-download the submissions file',
  },
  EDGAR_UNKNOWN_TICKER: {
    exit: 2,
    when: 'a ticker is not in company_tickers.json',
    fix: 'check the spelling (SEC tickers such as AAPL or BRK-B)',
  },
  EDGAR_USER_AGENT_INVALID: {
    exit: 2,
    when: 'ASOF_SEC_USER_AGENT holds a control or non-ASCII character',
    fix: 'set it to printable ASCII, e.g. "Jane Doe jane@example.com"',
  },
  EDGAR_USER_AGENT_MISSING: {
    exit: 2,
    when: 'ASOF_SEC_USER_AGENT is not set; SEC EDGAR requires a User-Agent naming you',
    fix: 'export ASOF_SEC_USER_AGENT="Jane Doe jane@example.com"',
  },
  EDGAR_USER_AGENT_NO_CONTACT: {
    exit: 2,
    when: 'ASOF_SEC_USER_AGENT has no valid e-mail address',
    fix: 'set it to a name and an address, e.g. "Jane Doe jane@example.com"',
  },
  EDGAR_USER_AGENT_NO_NAME: {
    exit: 2,
    when: 'ASOF_SEC_USER_AGENT names no person or organisation beside the address',
    fix: 'set it to a name and an address, e.g. "Jane Doe jane@example.com"',
  },
} as const satisfies ErrorCatalogue;
