import type { AtomicSink } from '@asof/schema';
import { edgarConceptMap } from '@asof/taxonomy';
import { padCik, parseCompanyfactsPayload } from './companyfacts-payload.ts';
import type { EdgarConceptMapping } from './edgar-concept-mapping.ts';
import { edgarListingIntervals } from './listing-intervals.ts';
import { type EdgarCompanySummary, mapEdgarToAtomic } from './map-edgar-to-atomic.ts';
import { type ParsedSubmissions, parseSubmissions } from './parse-submissions.ts';
import { parseSubmissionsPage, parseSubmissionsPayload } from './submissions-payload.ts';

/** One raw JSON body and where it came from (a file name or a stripped URL), for messages. */
export interface RawJson {
  where: string;
  json: unknown;
}

/** The raw SEC bodies for one company, as read from a directory or fetched live. */
export interface EdgarRawCompany {
  companyfacts: RawJson;
  /** Further companyfacts downloads of the same company (another vintage): read as one union. */
  moreCompanyfacts?: RawJson[];
  submissions?: RawJson | null;
  /** Overflow pages by file name (`CIK##########-submissions-001.json`). */
  pages?: (RawJson & { name: string })[];
  ticker?: string | null;
}

export interface IngestEdgarOptions {
  /** Concept fallbacks per detail category; default `edgarConceptMap()` of `@asof/taxonomy`. */
  conceptMap?: EdgarConceptMapping[];
  isSynthetic?: boolean;
}

export interface EdgarIngestSummary {
  companies: EdgarCompanySummary[];
  ingested: number;
  skipped: { cik: string; entity_name: string; reason: string }[];
  series: number;
  observations: number;
  revisions: number;
  derived_q4: number;
}

/**
 * The one parser both the raw-directory replay and the live fetch run: validates the payloads (zod),
 * indexes filings (following overflow pages), and maps each company into `sink`.
 */
export function ingestEdgarPayloads(
  companies: EdgarRawCompany[],
  sink: AtomicSink,
  options: IngestEdgarOptions,
): EdgarIngestSummary {
  const summaries: EdgarCompanySummary[] = [];
  const conceptMap = options.conceptMap ?? edgarConceptMap();
  const sorted = companies
    .map((c) => ({
      c,
      facts: parseCompanyfactsPayload(c.companyfacts.json, c.companyfacts.where),
      more: (c.moreCompanyfacts ?? []).map((m) => ({
        payload: parseCompanyfactsPayload(m.json, m.where),
        where: m.where,
      })),
    }))
    .sort((a, b) => (padCik(a.facts.cik) < padCik(b.facts.cik) ? -1 : 1));
  for (const { c, facts, more } of sorted) {
    let submissions: ParsedSubmissions | null = null;
    let complete = false;
    if (c.submissions) {
      const main = parseSubmissionsPayload(c.submissions.json, c.submissions.where);
      const pages = (c.pages ?? []).map((p) => ({
        where: p.where,
        columns: parseSubmissionsPage(p.json, p.where),
      }));
      submissions = parseSubmissions(main, pages, c.submissions.where);
      const have = new Set((c.pages ?? []).map((p) => p.name));
      const missing = submissions.pageNames.filter((n) => !have.has(n));
      complete = missing.length === 0;
      if (missing.length > 0) {
        sink.addWarning({
          code: 'EDGAR_SUBMISSIONS_PAGE_MISSING',
          message:
            `EDGAR CIK ${submissions.cik}: overflow page(s) ${missing.join(', ')} listed in ${c.submissions.where} were not ` +
            'available; facts from the filings they index are dated by their filing date at 23:59:59 ET',
          count: missing.length,
        });
      }
      if (submissions.cik !== padCik(facts.cik)) {
        sink.addWarning({
          code: 'EDGAR_SUBMISSIONS_CIK_MISMATCH',
          message: `${c.submissions.where} is for CIK ${submissions.cik} but ${c.companyfacts.where} is CIK ${padCik(facts.cik)}; submissions ignored`,
          count: 1,
        });
        submissions = null;
      }
    } else {
      sink.addWarning({
        code: 'EDGAR_SUBMISSIONS_MISSING',
        message: `EDGAR CIK ${padCik(facts.cik)} (${facts.entityName}): no submissions file; every fact is dated by its filing date at 23:59:59 ET`,
        count: 1,
      });
    }
    const summary = mapEdgarToAtomic(
      {
        companyfacts: facts,
        moreCompanyfacts: more,
        submissions,
        ticker: c.ticker ?? null,
        where: c.companyfacts.where,
      },
      sink,
      {
        conceptMap,
        isSynthetic: options.isSynthetic,
      },
    );
    summaries.push(summary);
    // Listing status only for companies the universe holds series of: the rows are about its entities.
    if (submissions !== null && summary.status !== 'skipped') {
      for (const row of edgarListingIntervals(submissions, complete)) sink.addMembership(row);
    }
  }
  const skipped = summaries
    .filter((s) => s.status === 'skipped')
    .map((s) => ({ cik: s.cik, entity_name: s.entity_name, reason: s.reason ?? '' }));
  const sum = (k: 'series' | 'observations' | 'revisions' | 'derived_q4') =>
    summaries.reduce((n, s) => n + s[k], 0);
  return {
    companies: summaries,
    ingested: summaries.length - skipped.length,
    skipped,
    series: sum('series'),
    observations: sum('observations'),
    revisions: sum('revisions'),
    derived_q4: sum('derived_q4'),
  };
}
