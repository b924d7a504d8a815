import { badDateMessage, badInstantMessage } from '@asof/calendar';
import { InputError, type Micros } from '@asof/schema';
import { padCik } from './companyfacts-payload.ts';
import { edgarAvailableAt } from './edgar-available-at.ts';
import type { SubmissionsColumns, SubmissionsPayload } from './submissions-payload.ts';

/** One filing (accession) as the submissions index describes it. */
export interface EdgarFiling {
  accn: string;
  form: string;
  filingDate: string;
  /** Raw `acceptanceDateTime`; null when the index has none for this filing. */
  acceptanceDateTime: string | null;
  reportDate: string | null;
  /** The file number the filing is under (`001-36743`); null when the index has none. */
  fileNumber: string | null;
  /** SPEC §4 availability of everything this filing reports. */
  readonly availableAt: Micros;
}

export interface ParsedSubmissions {
  /** 10-digit zero-padded CIK. */
  cik: string;
  name: string;
  tickers: string[];
  /** Fiscal year end as MMDD (e.g. `0926`), null when the index does not give one. */
  fiscalYearEnd: string | null;
  filings: Map<string, EdgarFiling>;
  /** Overflow page file names listed in `filings.files`, in order. */
  pageNames: string[];
}

/** Reads one column table (`filings.recent` or an overflow page) into `into`; the first row seen for an accn wins. */
export function parseSubmissionsColumns(
  cols: SubmissionsColumns,
  where: string,
  into = new Map<string, EdgarFiling>(),
) {
  const n = cols.accessionNumber.length;
  const lengths: Record<string, number | undefined> = {
    filingDate: cols.filingDate.length,
    form: cols.form.length,
    acceptanceDateTime: cols.acceptanceDateTime?.length,
    reportDate: cols.reportDate?.length,
    fileNumber: cols.fileNumber?.length,
  };
  for (const [col, len] of Object.entries(lengths)) {
    if (len !== undefined && len !== n) {
      throw new InputError(
        'EDGAR_SUBMISSIONS_RAGGED',
        `${where}: column ${col} has ${len} rows but accessionNumber has ${n}; the file is truncated or edited. ` +
          'Fix: re-download the submissions file.',
        { context: { where, column: col, rows: len, expected: n } },
      );
    }
  }
  for (let i = 0; i < n; i++) {
    const accn = cols.accessionNumber[i];
    if (into.has(accn)) continue;
    const filingDate = cols.filingDate[i];
    const acceptance = cols.acceptanceDateTime?.[i] || null;
    const reportDate = cols.reportDate?.[i] || null;
    const bad = (field: string, code: string, message: string | null, value: string | null) => {
      if (message === null) return;
      throw new InputError(
        code,
        `${where}: row ${i} (accession ${accn}), field ${field}: ${message}. Fix: re-download the file.`,
        { context: { where, row: i, accn, field, value } },
      );
    };
    bad('filingDate', 'EDGAR_BAD_FILING_DATE', badDateMessage(filingDate), filingDate);
    // Read as New York wall time whatever its zone (edgarAvailableAt), but it must name a real instant.
    if (acceptance !== null) {
      bad('acceptanceDateTime', 'EDGAR_BAD_ACCEPTANCE_TIME', badInstantMessage(acceptance), acceptance);
    }
    if (reportDate !== null)
      bad('reportDate', 'EDGAR_BAD_REPORT_DATE', badDateMessage(reportDate), reportDate);
    // Computed on first use: time-zone arithmetic is the costly part and most filings (Forms 3/4/8-K…)
    // carry no companyfacts values.
    let availableAt: Micros | undefined;
    into.set(accn, {
      accn,
      form: cols.form[i],
      filingDate,
      acceptanceDateTime: acceptance,
      reportDate,
      fileNumber: cols.fileNumber?.[i] || null,
      get availableAt() {
        availableAt ??= edgarAvailableAt({ filingDate, acceptanceDateTime: acceptance });
        return availableAt;
      },
    });
  }
  return into;
}

/**
 * Indexes a company's filings by accession number from the main submissions document and any overflow
 * pages (`filings.files`), so that each companyfacts value can be dated by its filing's acceptance time.
 */
export function parseSubmissions(
  main: SubmissionsPayload,
  pages: { where: string; columns: SubmissionsColumns }[] = [],
  where = 'submissions',
): ParsedSubmissions {
  const filings = parseSubmissionsColumns(main.filings.recent, `${where} filings.recent`);
  for (const page of pages) parseSubmissionsColumns(page.columns, page.where, filings);
  return {
    cik: padCik(main.cik),
    name: main.name,
    tickers: main.tickers ?? [],
    fiscalYearEnd: main.fiscalYearEnd ?? null,
    filings,
    pageNames: main.filings.files.map((f) => f.name),
  };
}
