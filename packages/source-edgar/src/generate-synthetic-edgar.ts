import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { keyedNormal, keyedUniform } from '@asof/prng';
import type { AtomicSink } from '@asof/schema';
import type { EdgarIngestSummary } from './ingest-edgar-payloads.ts';
import {
  type EdgarRawFile,
  type IngestEdgarRawDirOptions,
  ingestEdgarRawFiles,
} from './ingest-edgar-raw-dir.ts';

export interface SyntheticEdgarOptions {
  seed: number | string;
  /** Number of synthetic companies (default 3). Company 0 files a 10-K/A; company 1 splits 4:1. */
  companies?: number;
  firstFiscalYear?: number;
  fiscalYears?: number;
}

/** One raw file, in the SEC's own format, and the name it would have in a raw directory. */
export interface SyntheticEdgarFile {
  name: string;
  json: unknown;
}

interface Period {
  start: string;
  end: string;
}

interface Filing {
  accn: string;
  form: '10-Q' | '10-K' | '10-K/A';
  fy: number;
  fp: 'Q1' | 'Q2' | 'Q3' | 'FY';
  /** Fiscal year and quarter whose period the filing closes (q 4 = the fiscal year). */
  q: number;
  reportDate: string;
  filingDate: string;
  acceptance: string;
}

type Fact = {
  start?: string;
  end: string;
  val: number;
  accn: string;
  fy: number;
  fp: string;
  form: string;
  filed: string;
};

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const ms = (d: string) => Date.parse(`${d}T00:00:00Z`);
const addDays = (d: string, n: number) => iso(ms(d) + n * DAY);
const endOfMonth = (y: number, m: number) => iso(Date.UTC(y, m, 0)); // m is 1-based: day 0 of next month
function businessDay(d: string): string {
  let t = ms(d);
  while ([0, 6].includes(new Date(t).getUTCDay())) t += DAY;
  return iso(t);
}
const m6 = (x: number) => Math.round(x / 1e6) * 1e6;
const r2 = (x: number) => Math.round(x * 100) / 100;

/** Draws of one company's own counter streams: the same (stream, step) always gives the same number. */
type Draw = (stream: string, step: number) => number;

/** A company's fiscal calendar: fiscal years end in `fyeMonth` (January years are named by their start). */
interface FiscalCalendar {
  fyEnd(fy: number): string;
  quarter(fy: number, q: number): Period;
  fiscalYear(fy: number): Period;
  ytd(fy: number, q: number): Period;
}

function fiscalCalendar(fyeMonth: number): FiscalCalendar {
  const fyEnd = (fy: number) => endOfMonth(fyeMonth === 1 ? fy + 1 : fy, fyeMonth);
  // Every fact of a filing asks for its quarters' dates again: computed once per (fy, q), as the date
  // formatting was ~15% of the generator's time. Callers only read the periods.
  const quarters = new Map<number, Period>();
  const quarter = (fy: number, q: number): Period => {
    const cached = quarters.get(fy * 4 + q);
    if (cached) return cached;
    const endM = fyeMonth - 3 * (4 - q);
    const [y, m] =
      endM <= 0 ? [(fyeMonth === 1 ? fy + 1 : fy) - 1, endM + 12] : [fyeMonth === 1 ? fy + 1 : fy, endM];
    const end = endOfMonth(y, m);
    const prevM = m - 3 <= 0 ? m + 9 : m - 3;
    const prevY = m - 3 <= 0 ? y - 1 : y;
    const period = { start: addDays(endOfMonth(prevY, prevM), 1), end };
    quarters.set(fy * 4 + q, period);
    return period;
  };
  return {
    fyEnd,
    quarter,
    fiscalYear: (fy) => ({ start: quarter(fy, 1).start, end: fyEnd(fy) }),
    ytd: (fy, q) => ({ start: quarter(fy, 1).start, end: quarter(fy, q).end }),
  };
}

/** One fiscal quarter's true figures. */
type Truth = {
  rev: number;
  ni: number;
  op: number;
  rd: number;
  ocf: number;
  capex: number;
  shares: number;
  assets: number;
};

/**
 * Truth per fiscal quarter, keyed `${fy}Q${q}` (draw step k = (fy - first + 2) * 4 + q - 1): two years of
 * history before the first filing so its comparatives exist.
 */
function simulateTruth(u: Draw, n: Draw, first: number, years: number): Map<string, Truth> {
  const truth = new Map<string, Truth>();
  let logRev = Math.log(5e8 + 4.5e9 * u('base', 0));
  const shares0 = 2e8 + 8e8 * u('shares', 0);
  for (let fy = first - 2; fy < first + years; fy++) {
    for (let q = 1; q <= 4; q++) {
      const k = (fy - first + 2) * 4 + q - 1;
      logRev += 0.015 + 0.05 * n('rev', k);
      const rev = m6(Math.exp(logRev) * (1 + 0.08 * Math.sin((q * Math.PI) / 2)));
      const opMargin = 0.12 + 0.04 * n('margin', k);
      const op = m6(rev * opMargin);
      truth.set(`${fy}Q${q}`, {
        rev,
        op,
        ni: m6(op * (0.78 + 0.05 * n('tax', k))),
        rd: m6(rev * (0.1 + 0.01 * n('rd', k))),
        ocf: m6(op * (1.1 + 0.15 * n('ocf', k))),
        capex: m6(rev * (0.05 + 0.01 * u('capex', k))),
        shares: Math.round(shares0 * (1 + 0.003 * k)),
        assets: m6(rev * (5.5 + 0.3 * n('assets', k))),
      });
    }
  }
  return truth;
}

/** Three 10-Qs and a 10-K per fiscal year (company 0 amends one 10-K), in filing-date order. */
function scheduleFilings(
  c: number,
  cik: string,
  u: Draw,
  cal: FiscalCalendar,
  first: number,
  years: number,
): Filing[] {
  const filings: Filing[] = [];
  let seq = 0;
  const accn = (filed: string) => `${cik}-${filed.slice(2, 4)}-${String(++seq).padStart(6, '0')}`;
  const file = (form: Filing['form'], fy: number, q: number, lagDays: number, step: number) => {
    const reportDate = q === 4 ? cal.fyEnd(fy) : cal.quarter(fy, q).end;
    const day = businessDay(addDays(reportDate, lagDays));
    const minutes = 6 * 60 + Math.floor(u('accept', step) * 15 * 60); // 06:00–20:59 ET
    const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
    const mm = String(minutes % 60).padStart(2, '0');
    // After 17:30 ET EDGAR dates the filing the next business day.
    const filingDate = minutes > 17 * 60 + 30 ? businessDay(addDays(day, 1)) : day;
    filings.push({
      accn: accn(filingDate),
      form,
      fy,
      fp: q === 4 ? 'FY' : (`Q${q}` as Filing['fp']),
      q,
      reportDate,
      filingDate,
      acceptance: `${day}T${hh}:${mm}:00.000Z`,
    });
  };
  for (let fy = first; fy < first + years; fy++) {
    for (let q = 1; q <= 3; q++) file('10-Q', fy, q, 35 + Math.floor(u('lagq', fy * 4 + q) * 10), fy * 4 + q);
    file('10-K', fy, 4, 55 + Math.floor(u('lagk', fy) * 10), fy * 4 + 4);
    if (c === 0 && fy === first + 2) file('10-K/A', fy, 4, 110, fy * 4 + 5);
  }
  filings.sort((a, b) => (a.filingDate < b.filingDate ? -1 : a.filingDate > b.filingDate ? 1 : 0));
  return filings;
}

/**
 * What a filing says about quarter fy/q (`known`) and about a sum of quarters (`sumOf`): the 10-K/A
 * restates that year's Q4 revenue and income, and filings after the split re-express per-share values and
 * share counts.
 */
function filingView(truth: Map<string, Truth>, amendment: Filing | undefined, splitDate: string | null) {
  const known = (f: Filing, fy: number, q: number): Truth => {
    const t = { ...truth.get(`${fy}Q${q}`)! };
    if (amendment && f.filingDate >= amendment.filingDate && fy === amendment.fy && q === 4) {
      const cut = m6(t.rev * 0.04);
      t.rev -= cut;
      t.op -= m6(cut * 0.5);
      t.ni -= m6(cut * 0.4);
    }
    if (splitDate && f.filingDate >= splitDate) t.shares *= 4;
    return t;
  };
  const sumOf = (f: Filing, fy: number, qs: number[]): Truth => {
    const parts = qs.map((q) => known(f, fy, q));
    const add = (key: keyof Truth) => parts.reduce((acc, p) => acc + p[key], 0);
    const shares = Math.round(add('shares') / parts.length);
    return {
      rev: add('rev'),
      ni: add('ni'),
      op: add('op'),
      rd: add('rd'),
      ocf: add('ocf'),
      capex: add('capex'),
      shares,
      assets: parts[parts.length - 1].assets,
    };
  };
  return { known, sumOf };
}

/** The durations a filing reports: its quarter and YTD (and last year's), or three fiscal years. */
function filingDurations(
  c: number,
  f: Filing,
  cal: FiscalCalendar,
): { p: Period; fy: number; qs: number[] }[] {
  const durations: { p: Period; fy: number; qs: number[] }[] = [];
  if (f.q < 4) {
    for (const fy of [f.fy, f.fy - 1]) {
      durations.push({ p: cal.quarter(fy, f.q), fy, qs: [f.q] });
      if (f.q > 1)
        durations.push({
          p: cal.ytd(fy, f.q),
          fy,
          qs: Array.from({ length: f.q }, (_, i) => i + 1),
        });
    }
  } else {
    for (const fy of [f.fy, f.fy - 1, f.fy - 2])
      durations.push({ p: cal.fiscalYear(fy), fy, qs: [1, 2, 3, 4] });
    if (c % 3 === 2) durations.push({ p: cal.quarter(f.fy, 4), fy: f.fy, qs: [4] });
  }
  return durations;
}

/** The `facts['us-gaap']` of a companyfacts file: every value every filing reports, concepts sorted. */
function buildUsGaap(
  c: number,
  filings: Filing[],
  view: ReturnType<typeof filingView>,
  cal: FiscalCalendar,
  first: number,
): Record<string, unknown> {
  const us: Record<string, Fact[]> = {};
  const units: Record<string, string> = {};
  const push = (concept: string, unit: string, fact: Fact) => {
    units[concept] = unit;
    const list = us[concept] ?? [];
    list.push(fact);
    us[concept] = list;
  };
  for (const f of filings) {
    const meta = { accn: f.accn, fy: f.fy, fp: f.fp, form: f.form, filed: f.filingDate };
    const revenueConcept =
      f.fy < first + 2 ? 'SalesRevenueNet' : 'RevenueFromContractWithCustomerExcludingAssessedTax';
    for (const d of filingDurations(c, f, cal)) {
      const v = view.sumOf(f, d.fy, d.qs);
      const at = { start: d.p.start, end: d.p.end, ...meta };
      push(revenueConcept, 'USD', { ...at, val: v.rev });
      push('NetIncomeLoss', 'USD', { ...at, val: v.ni });
      push('OperatingIncomeLoss', 'USD', { ...at, val: v.op });
      push('ResearchAndDevelopmentExpense', 'USD', { ...at, val: v.rd });
      push('NetCashProvidedByUsedInOperatingActivities', 'USD', { ...at, val: v.ocf });
      push('PaymentsToAcquirePropertyPlantAndEquipment', 'USD', { ...at, val: v.capex });
      const basic = Math.round(v.shares * 0.98);
      push('WeightedAverageNumberOfDilutedSharesOutstanding', 'shares', { ...at, val: v.shares });
      push('WeightedAverageNumberOfSharesOutstandingBasic', 'shares', { ...at, val: basic });
      push('EarningsPerShareBasic', 'USD/shares', { ...at, val: r2(v.ni / basic) });
      push('EarningsPerShareDiluted', 'USD/shares', { ...at, val: r2(v.ni / v.shares) });
    }
    const instants: { end: string; fy: number; q: number }[] =
      f.q < 4
        ? [
            { end: cal.quarter(f.fy, f.q).end, fy: f.fy, q: f.q },
            { end: cal.fyEnd(f.fy - 1), fy: f.fy - 1, q: 4 },
          ]
        : [
            { end: cal.fyEnd(f.fy), fy: f.fy, q: 4 },
            { end: cal.fyEnd(f.fy - 1), fy: f.fy - 1, q: 4 },
          ];
    for (const i of instants) {
      const a = view.known(f, i.fy, i.q).assets;
      const liabilities = m6(a * 0.55);
      const at = { end: i.end, ...meta };
      push('Assets', 'USD', { ...at, val: a });
      push('Liabilities', 'USD', { ...at, val: liabilities });
      push('StockholdersEquity', 'USD', { ...at, val: a - liabilities });
      push('CashAndCashEquivalentsAtCarryingValue', 'USD', { ...at, val: m6(a * 0.15) });
      push('LongTermDebt', 'USD', { ...at, val: m6(a * 0.2) });
    }
  }
  const usGaap: Record<string, unknown> = {};
  for (const concept of Object.keys(us).sort()) {
    usGaap[concept] = {
      label: concept,
      description: 'synthetic',
      units: { [units[concept]]: us[concept] },
    };
  }
  return usGaap;
}

/** Submissions: newest first, the first two fiscal years moved to an overflow page. */
function buildSubmissions(
  company: { cik: string; ticker: string; name: string },
  filings: Filing[],
  cal: FiscalCalendar,
  first: number,
): SyntheticEdgarFile[] {
  const { cik, ticker, name } = company;
  const newestFirst = [...filings].reverse();
  const cutoff = filings.find((f) => f.fy >= first + 2)?.filingDate ?? '9999-12-31';
  const columns = (rows: Filing[]) => ({
    accessionNumber: rows.map((f) => f.accn),
    filingDate: rows.map((f) => f.filingDate),
    reportDate: rows.map((f) => f.reportDate),
    acceptanceDateTime: rows.map((f) => f.acceptance),
    act: rows.map(() => '34'),
    form: rows.map((f) => f.form),
    fileNumber: rows.map(() => '000-00000'),
    filmNumber: rows.map(() => ''),
    items: rows.map(() => ''),
    core_type: rows.map((f) => f.form),
    size: rows.map(() => 100_000),
    isXBRL: rows.map(() => 1),
    isInlineXBRL: rows.map(() => 1),
    primaryDocument: rows.map((f) => `${ticker.toLowerCase()}-${f.reportDate.replace(/-/g, '')}.htm`),
    primaryDocDescription: rows.map((f) => f.form),
  });
  const recent = newestFirst.filter((f) => f.filingDate >= cutoff);
  const older = newestFirst.filter((f) => f.filingDate < cutoff);
  const pageName = `CIK${cik}-submissions-001.json`;
  const files: SyntheticEdgarFile[] = [
    {
      name: `submissions_CIK${cik}_${ticker}.json`,
      json: {
        cik,
        entityType: 'operating',
        sic: '9999',
        sicDescription: 'Synthetic',
        name,
        tickers: [ticker],
        exchanges: ['SYNTH'],
        fiscalYearEnd: cal.fyEnd(first).slice(5, 7) + cal.fyEnd(first).slice(8, 10),
        filings: {
          recent: columns(recent),
          files:
            older.length === 0
              ? []
              : [
                  {
                    name: pageName,
                    filingCount: older.length,
                    filingFrom: older[older.length - 1].filingDate,
                    filingTo: older[0].filingDate,
                  },
                ],
        },
      },
    },
  ];
  if (older.length > 0)
    files.push({ name: `submissions_CIK${cik}-submissions-001_${ticker}.json`, json: columns(older) });
  return files;
}

/**
 * Seeded raw EDGAR data (companyfacts, submissions with an overflow page, company_tickers) for synthetic
 * companies, so the default build runs the real parser with no network. It has what makes EDGAR hard:
 * 10-Q/10-K comparatives re-reporting old periods, Q4 only as FY − 9M (one company reports Q4 itself),
 * a 10-K/A restating a fiscal year, a 4:1 split after which every filing re-expresses EPS and share counts,
 * a revenue tag switch (SalesRevenueNet → RevenueFromContractWithCustomerExcludingAssessedTax), fiscal
 * years ending in different months, and acceptances after 17:30 ET dated the next business day.
 */
export function generateSyntheticEdgar(options: SyntheticEdgarOptions): SyntheticEdgarFile[] {
  const { seed } = options;
  const nCompanies = options.companies ?? 3;
  const first = options.firstFiscalYear ?? 2016;
  const years = options.fiscalYears ?? 6;
  const files: SyntheticEdgarFile[] = [];
  const tickers: Record<string, { cik_str: number; ticker: string; title: string }> = {};

  for (let c = 0; c < nCompanies; c++) {
    const cikNum = 9_990_000_001 + c;
    const cik = String(cikNum).padStart(10, '0');
    const letter = String.fromCharCode(65 + (c % 26)) + (c >= 26 ? String(Math.floor(c / 26)) : '');
    const ticker = `SYN${letter}`;
    const name = `Synthetic Company ${letter} Inc.`;
    tickers[String(c)] = { cik_str: cikNum, ticker, title: name };
    const s = `${c}`;
    const u: Draw = (stream, step) => keyedUniform(seed, `${s}/${stream}`, step);
    const n: Draw = (stream, step) => keyedNormal(seed, `${s}/${stream}`, step);
    const cal = fiscalCalendar([12, 9, 1, 6][c % 4]);

    const truth = simulateTruth(u, n, first, years);
    const filings = scheduleFilings(c, cik, u, cal, first, years);
    const amendment = filings.find((f) => f.form === '10-K/A');
    const splitDate = c === 1 && years > 3 ? addDays(cal.quarter(first + 3, 2).end, 20) : null;
    const usGaap = buildUsGaap(c, filings, filingView(truth, amendment, splitDate), cal, first);
    files.push({
      name: `companyfacts_CIK${cik}_${ticker}.json`,
      json: { cik: cikNum, entityName: name, facts: { 'us-gaap': usGaap } },
    });
    files.push(...buildSubmissions({ cik, ticker, name }, filings, cal, first));
  }
  files.push({ name: 'company_tickers.json', json: tickers });
  return files;
}

/** Writes the synthetic raw files into `dir` (which must exist); returns the file names. */
export async function writeSyntheticEdgarRawDir(
  dir: string,
  options: SyntheticEdgarOptions,
): Promise<string[]> {
  const files = generateSyntheticEdgar(options);
  for (const f of files) await writeFile(join(dir, f.name), `${JSON.stringify(f.json)}\n`);
  return files.map((f) => f.name);
}

/**
 * Generates the synthetic raw files and ingests them through the same classification and parser as a raw
 * directory (series ids `syn:edgar:…`, is_synthetic true). For the embedded default build.
 */
export function ingestSyntheticEdgar(
  sink: AtomicSink,
  options: SyntheticEdgarOptions & Omit<IngestEdgarRawDirOptions, 'isSynthetic'>,
): EdgarIngestSummary {
  const files: EdgarRawFile[] = generateSyntheticEdgar(options).map((f) => {
    const text = `${JSON.stringify(f.json)}\n`;
    const buf = Buffer.from(text, 'utf8');
    return {
      name: f.name,
      json: JSON.parse(text),
      sha256: createHash('sha256').update(buf).digest('hex'),
      bytes: buf.length,
    };
  });
  return ingestEdgarRawFiles(files, sink, { ...options, isSynthetic: true, where: 'synthetic EDGAR' });
}
