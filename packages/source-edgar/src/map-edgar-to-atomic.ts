import { endOfDayMicros, zonedMicros } from '@asof/calendar';
import type { AtomicSink, Micros, SeriesInput } from '@asof/schema';
import type { CompanyfactsPayload } from './companyfacts-payload.ts';
import { type CategoryVintages, type DatedFact, deriveQuarterly } from './derive-quarterly.ts';
import { edgarAvailableAt } from './edgar-available-at.ts';
import { detailCategorySlug, type EdgarConceptMapping } from './edgar-concept-mapping.ts';
import { FactLedger } from './fact-ledger.ts';
import {
  type CompanyfactsDownload,
  type EdgarFactValue,
  type ParsedCompanyfacts,
  parseCompanyfactsDownloads,
} from './parse-companyfacts.ts';
import type { ParsedSubmissions } from './parse-submissions.ts';

const NY = 'America/New_York';

// Period boundaries repeat across facts, filings and companies; time-zone arithmetic is the costly part.
const endOfDayCache = new Map<string, Micros>();
const startOfDayCache = new Map<string, Micros>();
function periodEndMicros(date: string): Micros {
  let v = endOfDayCache.get(date);
  if (v === undefined) {
    v = endOfDayMicros(date, NY);
    endOfDayCache.set(date, v);
  }
  return v;
}
function periodStartMicros(date: string): Micros {
  let v = startOfDayCache.get(date);
  if (v === undefined) {
    v = zonedMicros(date, '00:00', NY);
    startOfDayCache.set(date, v);
  }
  return v;
}

/** Weighted basic shares are not one of the 14 categories but are needed to derive a Q4 basic EPS. */
const AUX_BASIC_SHARES: EdgarConceptMapping = {
  detail_category: '__weighted_shares_basic',
  kind: 'shares',
  units: ['shares'],
  concepts: [
    'WeightedAverageNumberOfSharesOutstandingBasic',
    'WeightedAverageNumberOfShareOutstandingBasicAndDiluted',
  ],
};

export interface EdgarCompanyInput {
  companyfacts: CompanyfactsPayload;
  /** The company's parsed submissions (with overflow pages); null → every fact dated by `filed` 23:59:59 ET. */
  submissions: ParsedSubmissions | null;
  ticker?: string | null;
  /** File name or URL of the companyfacts: its input key, for messages and the accounting entry. */
  where: string;
  /**
   * Further downloads of the same company (another vintage of the file): read as the union of their
   * facts with `companyfacts` (parseCompanyfactsDownloads), each with its own accounting entry.
   */
  moreCompanyfacts?: CompanyfactsDownload[];
}

export interface MapEdgarOptions {
  /** `edgarConceptMap()` of `@asof/taxonomy`. */
  conceptMap: EdgarConceptMapping[];
  /** Synthetic companies: series ids get the `syn:` prefix and is_synthetic = true. */
  isSynthetic?: boolean;
}

export interface EdgarCompanySummary {
  cik: string;
  entity_name: string;
  ticker: string | null;
  status: 'ingested' | 'skipped';
  reason: string | null;
  series: number;
  observations: number;
  /** Observations that are revisions (not the first row of their period). */
  revisions: number;
  derived_q4: number;
  derived_q4_eps: number;
  /** Facts whose filing is missing from submissions, dated at the filing date 23:59:59 ET. */
  facts_dated_by_filed: number;
  /** Facts filed before their period ended, made available at the period end instead. */
  facts_clamped_to_period_end: number;
  conflicting_duplicates: number;
}

function fiscalYearEndOf(input: EdgarCompanyInput, facts: DatedFact[]): string | null {
  if (input.submissions?.fiscalYearEnd) return input.submissions.fiscalYearEnd;
  let last: string | null = null;
  for (const f of facts) if (f.periodClass === 'FY' && (last === null || f.end > last)) last = f.end;
  return last === null ? null : last.slice(5, 7) + last.slice(8, 10);
}

function currencyOf(unit: string): string | null {
  const m = /^([A-Z]{3})(\/shares)?$/.exec(unit);
  return m ? m[1] : null;
}

function skip(sink: AtomicSink, base: EdgarCompanySummary, reason: string): EdgarCompanySummary {
  sink.addWarning({
    code: 'EDGAR_COMPANY_SKIPPED',
    message: `EDGAR CIK ${base.cik} (${base.entity_name}) skipped: ${reason}`,
    count: 1,
  });
  return { ...base, status: 'skipped', reason };
}

/**
 * The skip of a company none of whose facts is in a mapped category: an IFRS-only filer (its facts dropped
 * as ifrs_filer), or one that reports none of the concepts. `account` writes the ledger to the sink.
 */
function skipUnmapped(
  sink: AtomicSink,
  base: EdgarCompanySummary,
  parsed: ParsedCompanyfacts,
  ledger: FactLedger,
  account: () => void,
  options: MapEdgarOptions,
): EdgarCompanySummary {
  if (!parsed.taxonomies.includes('us-gaap') && parsed.taxonomies.some((t) => t.startsWith('ifrs'))) {
    ledger.dropAll('ifrs_filer');
    account();
    return skip(
      sink,
      base,
      `IFRS filer: companyfacts has no us-gaap facts (taxonomies: ${parsed.taxonomies.join(', ')}); ` +
        'asof maps only us-gaap concepts to the Fundamentals categories, so its facts are counted dropped as ifrs_filer',
    );
  }
  // Left unsettled here: weighted basic shares, read only to derive Q4 EPS (not a registry concept).
  ledger.settleRest('unknown_concept');
  account();
  return skip(
    sink,
    base,
    `reports none of the mapped us-gaap concepts of the ${options.conceptMap.length} Fundamentals categories ` +
      `(taxonomies: ${parsed.taxonomies.join(', ') || 'none'})`,
  );
}

/**
 * Each fact with its availability: its filing's acceptance time from submissions, else the filing date at
 * 23:59:59 ET, never before its period's end. Counts both fallbacks in `base`.
 */
function dateFacts(
  facts: EdgarFactValue[],
  filings: ParsedSubmissions['filings'] | undefined,
  base: EdgarCompanySummary,
): DatedFact[] {
  const availabilityByAccn = new Map<string, Micros>();
  const dated: DatedFact[] = [];
  for (const f of facts) {
    const key = `${f.accn}|${f.filed}`;
    let at = availabilityByAccn.get(key);
    if (at === undefined) {
      const filing = filings?.get(f.accn);
      if (filing) {
        // A companyfacts `filed` later than the index's date would mean a re-dated filing: keep the later.
        at =
          filing.filingDate >= f.filed
            ? filing.availableAt
            : Math.max(filing.availableAt, edgarAvailableAt({ filingDate: f.filed }));
      } else {
        at = edgarAvailableAt({ filingDate: f.filed });
      }
      availabilityByAccn.set(key, at);
    }
    if (!filings?.has(f.accn)) base.facts_dated_by_filed++;
    const periodEnd = periodEndMicros(f.end);
    if (at < periodEnd) {
      base.facts_clamped_to_period_end++;
      at = periodEnd;
    }
    // parseCompanyfacts built these objects for this call alone: extend them in place.
    const d = f as DatedFact;
    d.availableAt = at;
    dated.push(d);
  }
  return dated;
}

/** One series (a category at one frequency) and its vintage rows; counts them in `base`. */
function addCategorySeries(
  sink: AtomicSink,
  cat: CategoryVintages,
  frequency: 'Q' | 'A',
  company: { cik: string; entityName: string; fiscalYearEnd: string | null },
  base: EdgarCompanySummary,
  options: MapEdgarOptions,
): void {
  const periods = cat.periods.filter((p) => p.frequency === frequency && p.rows.length > 0);
  if (periods.length === 0) return;
  const prefix = options.isSynthetic ? 'syn:edgar' : 'edgar';
  const slug = detailCategorySlug(cat.detail_category);
  const seriesId = `${prefix}:${company.cik}:${slug}:${frequency}`;
  const series: SeriesInput = {
    series_id: seriesId,
    source: 'edgar',
    source_key: `CIK${company.cik}/${slug}/${frequency}`,
    title: `${company.entityName}: ${cat.detail_category} (${frequency === 'Q' ? 'fiscal quarter' : 'fiscal year'}, ${cat.unit})`,
    unit: cat.unit,
    frequency,
    scope: 'Individual',
    category: 'Fundamentals',
    detail_category: cat.detail_category,
    entity_id: company.cik,
    entity_name: company.entityName,
    currency: currencyOf(cat.unit),
    seasonal_adjustment: 'NSA',
    fiscal_year_end: company.fiscalYearEnd,
    is_synthetic: options.isSynthetic === true,
    universe_kind: 'point_in_time',
  };
  sink.addSeries(series);
  base.series++;
  for (const p of periods) {
    const timestamp = periodEndMicros(p.end);
    const periodStart = p.start === null ? null : periodStartMicros(p.start);
    p.rows.forEach((r, i) => {
      sink.addObservation({
        series_id: seriesId,
        timestamp,
        period_start: periodStart,
        available_at: r.availableAt,
        value: r.value,
        available_at_basis: 'filing',
        source_ref: r.sourceRef,
      });
      base.observations++;
      if (i > 0) base.revisions++;
    });
  }
}

/**
 * Maps one company's companyfacts (+ submissions) to atomic series and vintage observations in `sink`.
 * Series ids: `edgar:<CIK10>:<detail-category-slug>:<Q|A>` (prefixed `syn:` for synthetic data).
 * IFRS-only filers and companies reporting none of the mapped concepts are skipped with a reason (a
 * warning in the sink and `status: 'skipped'` in the returned summary), never an exception.
 */
export function mapEdgarToAtomic(
  input: EdgarCompanyInput,
  sink: AtomicSink,
  options: MapEdgarOptions,
): EdgarCompanySummary {
  const ledger = new FactLedger();
  const parsed = parseCompanyfactsDownloads(
    [{ payload: input.companyfacts, where: input.where }, ...(input.moreCompanyfacts ?? [])],
    [...options.conceptMap, AUX_BASIC_SHARES],
    ledger,
  );
  // Every fact row of every file read is accounted for, whatever happens to the company (see FactLedger).
  const account = () => {
    for (const entry of ledger.entries()) sink.addAccounting(entry);
  };
  if (parsed.entityNames.length > 1) {
    sink.addWarning({
      code: 'EDGAR_COMPANY_RENAMED',
      message:
        `EDGAR CIK ${parsed.cik}: the downloads name the company ${parsed.entityNames.map((n) => JSON.stringify(n)).join(', ')} ` +
        `(newest first: ${parsed.downloads.join(', ')}); series carry the newest name, their ids the CIK`,
      count: parsed.entityNames.length,
    });
  }
  const base: EdgarCompanySummary = {
    cik: parsed.cik,
    entity_name: parsed.entityName,
    ticker: input.ticker ?? null,
    status: 'ingested',
    reason: null,
    series: 0,
    observations: 0,
    revisions: 0,
    derived_q4: 0,
    derived_q4_eps: 0,
    facts_dated_by_filed: 0,
    facts_clamped_to_period_end: 0,
    conflicting_duplicates: 0,
  };
  const mapped = new Set(options.conceptMap.map((m) => m.detail_category));
  const hasMapped = parsed.facts.some((f) => mapped.has(f.detail_category));
  if (!hasMapped) return skipUnmapped(sink, base, parsed, ledger, account, options);

  const dated = dateFacts(parsed.facts, input.submissions?.filings, base);
  const derived = deriveQuarterly(dated, {
    epsFromNetIncome: {
      'EPS Basic': { netIncome: 'Net Income', shares: AUX_BASIC_SHARES.detail_category },
      'EPS Diluted': { netIncome: 'Net Income', shares: 'Shares Diluted' },
    },
    ledger,
    auxiliary: new Set([AUX_BASIC_SHARES.detail_category]),
  });
  account();
  base.derived_q4 = derived.derivedQ4;
  base.derived_q4_eps = derived.derivedQ4Eps;
  base.conflicting_duplicates = derived.conflictingDuplicates;

  const company = {
    cik: parsed.cik,
    entityName: parsed.entityName,
    fiscalYearEnd: fiscalYearEndOf(input, dated),
  };
  const order = new Map(options.conceptMap.map((m, i) => [m.detail_category, i]));
  const categories = derived.categories
    .filter((c) => mapped.has(c.detail_category))
    .sort((a, b) => (order.get(a.detail_category) ?? 0) - (order.get(b.detail_category) ?? 0));
  for (const cat of categories) {
    for (const frequency of ['Q', 'A'] as const)
      addCategorySeries(sink, cat, frequency, company, base, options);
  }
  if (base.facts_clamped_to_period_end > 0) {
    sink.addWarning({
      code: 'EDGAR_FILED_BEFORE_PERIOD_END',
      message: `EDGAR CIK ${base.cik} (${base.entity_name}): ${base.facts_clamped_to_period_end} value(s) were filed before their period ended; they are made available at the period end`,
      count: base.facts_clamped_to_period_end,
    });
  }
  if (base.conflicting_duplicates > 0) {
    sink.addWarning({
      code: 'EDGAR_CONFLICTING_DUPLICATES',
      message: `EDGAR CIK ${base.cik} (${base.entity_name}): ${base.conflicting_duplicates} filing(s) reported two different values for the same concept and period; the first listed was kept`,
      count: base.conflicting_duplicates,
    });
  }
  if (base.series === 0) {
    return skip(
      sink,
      base,
      'mapped concepts found, but no fiscal-quarter or fiscal-year period among their facts',
    );
  }
  return base;
}
