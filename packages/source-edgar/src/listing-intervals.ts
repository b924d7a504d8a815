import { LISTED_UNIVERSE, type MembershipRow } from '@asof/schema';
import type { EdgarFiling, ParsedSubmissions } from './parse-submissions.ts';

/** Registration of a class of securities on an exchange (Exchange Act §12(b)): a listing starts. */
const LISTING_FORMS = new Set(['8-A12B']);
/**
 * Removal from listing (Form 25 by the issuer, 25-NSE by the exchange) and termination or suspension of
 * registration (Form 15 and 15F under §12(b), §12(g) or §15(d)): a listing ends. Amendments (`/A`) are not.
 */
const DELISTING_FORMS = new Set([
  '25',
  '25-NSE',
  '15-12B',
  '15-12G',
  '15-15D',
  '15F-12B',
  '15F-12G',
  '15F-15D',
]);
/** Periodic reports: the file number they are filed under is the registration of the company's stock. */
const PERIODIC_FORMS = /^(10-K|10-Q|10-KT|10-QT|20-F|40-F)(\/A)?$/;

interface ListingEvent {
  kind: 'start' | 'end';
  filing: EdgarFiling;
}

/**
 * The company's exchange listing intervals from its submissions index (universe `listed`, source
 * `edgar_submissions`, entity the 10-digit CIK; docs/decisions/0021), each change dated by its filing's
 * availability (SPEC §4: the acceptance time read as New York wall time, not before 07:30 New York on the
 * filing date).
 *
 * The index does not say which class of securities a listing filing is about (the form's text does), and
 * issuers list notes too: Apple's 25-NSE filings are Nasdaq removing matured notes. So a filing counts only
 * when it is under the file number of the company's periodic reports (the latest one filed before it, else
 * the first after it), and a removal with an 8-A12B under the same file number on the same filing date is a
 * move between exchanges, not an end (Apple's and Microsoft's Form 25 of 2019). A listing starts at an 8-A12B
 * (a second one while listed is another class) and ends at the first removal or deregistration.
 *
 * `complete`: every overflow page of the index was read. The first interval starts before the records
 * (`from` null, known from the start) when the index is incomplete, or when its first counted filing is an
 * end. A company none of whose filings count gets no rows: nothing says it was ever listed.
 */
export function edgarListingIntervals(submissions: ParsedSubmissions, complete: boolean): MembershipRow[] {
  // Only the filings the rule reads: availability is computed per filing on first use, and most are Forms 3/4/8-K.
  const filings = [...submissions.filings.values()]
    .filter((f) => LISTING_FORMS.has(f.form) || DELISTING_FORMS.has(f.form) || PERIODIC_FORMS.test(f.form))
    .sort((a, b) => a.availableAt - b.availableAt || (a.accn < b.accn ? -1 : a.accn > b.accn ? 1 : 0));
  const periodic = filings.filter((f) => PERIODIC_FORMS.test(f.form) && f.fileNumber !== null);
  const reportingFileNumber = (f: EdgarFiling): string | null => {
    let before: EdgarFiling | null = null;
    for (const p of periodic) {
      if (p.availableAt <= f.availableAt) before = p;
      else return (before ?? p).fileNumber;
    }
    return before?.fileNumber ?? null;
  };
  const registrations = new Set(
    filings.filter((f) => LISTING_FORMS.has(f.form)).map((f) => `${f.fileNumber}\u0000${f.filingDate}`),
  );
  const events: ListingEvent[] = [];
  for (const f of filings) {
    const kind = LISTING_FORMS.has(f.form) ? 'start' : DELISTING_FORMS.has(f.form) ? 'end' : null;
    if (kind === null || f.fileNumber === null || f.fileNumber !== reportingFileNumber(f)) continue;
    if (kind === 'end' && registrations.has(`${f.fileNumber}\u0000${f.filingDate}`)) continue;
    events.push({ kind, filing: f });
  }
  if (events.length === 0) return [];

  const entity = submissions.cik;
  const rows: MembershipRow[] = [];
  const ref = (f: EdgarFiling) => `${f.form} ${f.accn}`;
  let open: { from: number | null; ref: string } | null = null;
  if (!complete || events[0].kind === 'end') {
    open = { from: null, ref: `listed before the records held; first ${ref(events[0].filing)}` };
    rows.push(interval(entity, null, null, null, open.ref));
  }
  for (const { kind, filing } of events) {
    if (kind === 'start' && open === null) {
      open = { from: filing.availableAt, ref: ref(filing) };
      rows.push(interval(entity, filing.availableAt, null, filing.availableAt, open.ref));
    } else if (kind === 'end' && open !== null) {
      rows.push(interval(entity, open.from, filing.availableAt, filing.availableAt, ref(filing)));
      open = null;
    }
  }
  return rows;
}

function interval(
  entity: string,
  from: number | null,
  to: number | null,
  availableAt: number | null,
  sourceRef: string,
): MembershipRow {
  return {
    entity_id: entity,
    universe: LISTED_UNIVERSE,
    from,
    to,
    available_at: availableAt,
    source: 'edgar_submissions',
    source_ref: sourceRef,
    effective_from: null,
    effective_to: null,
  };
}
