import type { Micros } from '@asof/schema';
import type { EdgarConceptKind } from './edgar-concept-mapping.ts';
import type { FactLedger } from './fact-ledger.ts';
import { classifyPeriod, dayNumber, type EdgarFactValue } from './parse-companyfacts.ts';

/** A companyfacts value with its filing's availability (SPEC §4), already ≥ the period end. */
export interface DatedFact extends EdgarFactValue {
  availableAt: Micros;
}

/** One vintage of one period: a row of `observations`. */
export interface VintageRow {
  availableAt: Micros;
  value: number;
  /** Accession number, or `derived:…` naming the accessions a derived value came from. */
  sourceRef: string;
  /** Ledger ids of the facts behind the value (for accounting), when known. */
  ids?: number[];
}

export interface PeriodVintages {
  frequency: 'Q' | 'A';
  /** YYYY-MM-DD, null for instants. */
  start: string | null;
  end: string;
  /** Ascending availableAt; consecutive rows always differ in value. */
  rows: VintageRow[];
}

export interface CategoryVintages {
  detail_category: string;
  kind: EdgarConceptKind;
  unit: string;
  periods: PeriodVintages[];
}

export interface DeriveQuarterlyOptions {
  /**
   * Q4 EPS from Q4 net income / Q4 weighted shares, when a company reports no Q4 EPS: EPS category →
   * the categories holding net income and the matching weighted-average share count (3-month values).
   */
  epsFromNetIncome?: Record<string, { netIncome: string; shares: string }>;
  /** Where each fact's fate is recorded (mapped, or dropped with a reason); see FactLedger. */
  ledger?: FactLedger;
  /**
   * Categories read only to derive others (weighted basic shares for Q4 EPS): their facts count as mapped
   * only when they fed a derivation, and as `unknown_concept` (not a registry category) otherwise.
   */
  auxiliary?: ReadonlySet<string>;
}

export interface DeriveQuarterlyResult {
  categories: CategoryVintages[];
  /** Q4 periods given a FY − 9M value, counted over categories. */
  derivedQ4: number;
  derivedQ4Eps: number;
  /** (category, period, filing) triples where one filing reported two different values; the first was kept. */
  conflictingDuplicates: number;
}

/** One candidate value of a period with the instant it became public. */
export interface VintageEvent {
  availableAt: Micros;
  value: number;
  sourceRef: string;
  /** Ledger ids of the facts behind the value (for accounting), when known. */
  ids?: number[];
}

const PERIODIC_FORM = /^10-(K|Q|KT|QT)(\/A)?$/;

export function isPeriodicForm(form: string): boolean {
  return PERIODIC_FORM.test(form);
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function sameValue(a: number, b: number): boolean {
  return a === b || Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b));
}

function byTime(a: VintageEvent, b: VintageEvent): number {
  return (
    a.availableAt - b.availableAt || (a.sourceRef < b.sourceRef ? -1 : a.sourceRef > b.sourceRef ? 1 : 0)
  );
}

/**
 * Merges value streams for one period into vintages. At each instant the value is that of the
 * highest-priority stream (index 0 first) known by then; a row is emitted only when that value changes,
 * so a re-filed unchanged comparative is not a new row (SPEC §1) while a restatement is.
 */
export function mergeVintages(streams: VintageEvent[][]): VintageRow[] {
  const all: { e: VintageEvent; p: number }[] = [];
  streams.forEach((s, p) => {
    for (const e of s) all.push({ e, p });
  });
  all.sort((a, b) => byTime(a.e, b.e) || a.p - b.p);
  const latest: (VintageEvent | undefined)[] = new Array(streams.length);
  const out: VintageRow[] = [];
  let i = 0;
  while (i < all.length) {
    const t = all[i].e.availableAt;
    while (i < all.length && all[i].e.availableAt === t) {
      latest[all[i].p] = all[i].e;
      i++;
    }
    const eff = latest.find((e) => e !== undefined);
    if (!eff) continue;
    const prev = out[out.length - 1];
    if (!prev || !sameValue(prev.value, eff.value)) {
      const row: VintageRow = { availableAt: t, value: eff.value, sourceRef: eff.sourceRef };
      if (eff.ids) row.ids = eff.ids;
      out.push(row);
    }
  }
  return out;
}

/** Combines two vintage streams with `f` at every instant where both are known. */
function combineStreams(
  a: VintageEvent[],
  b: VintageEvent[],
  f: (x: VintageEvent, y: VintageEvent) => VintageEvent,
): VintageEvent[] {
  const all = [...a.map((e) => ({ e, s: 0 })), ...b.map((e) => ({ e, s: 1 }))].sort((x, y) =>
    byTime(x.e, y.e),
  );
  let la: VintageEvent | undefined;
  let lb: VintageEvent | undefined;
  const out: VintageEvent[] = [];
  let i = 0;
  while (i < all.length) {
    const t = all[i].e.availableAt;
    while (i < all.length && all[i].e.availableAt === t) {
      if (all[i].s === 0) la = all[i].e;
      else lb = all[i].e;
      i++;
    }
    if (la && lb) out.push({ ...f(la, lb), availableAt: t });
  }
  return out;
}

interface QSlot {
  start: string | null;
  end: string;
  reported: VintageEvent[];
  /**
   * Derived values by the filing year they came from, named by the latest period end the FY filing
   * reports (YYYY-MM-DD; '' for derivations that have no filing year, such as Q4 EPS).
   */
  derived: Map<string, VintageEvent[]>;
}

/**
 * Priority order for mergeVintages: a reported value first, then derivations from the most recent filing
 * year (restated comparatives), so an older year's late amendment cannot override a newer derivation.
 */
function slotStreams(slot: QSlot): VintageEvent[][] {
  const years = [...slot.derived.keys()].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  return [slot.reported, ...years.map((y) => slot.derived.get(y)!)];
}

interface FilingValue extends VintageEvent {
  start: string | null;
  end: string;
  form: string;
  /** The latest end of a quarter, nine-month or fiscal-year duration its filing reports (see filingYears). */
  reportEnd: string;
  ids: number[];
}

/**
 * The period a filing reports, as the latest end among its quarter, nine-month and fiscal-year
 * durations: a 10-K's fiscal year end, a Q3 10-Q's quarter end. It comes from start/end/accn only, so it
 * is the same in every download, where companyfacts `fy` is not (a 10-K filed in February 2021 for the
 * year ending January 2021 is fy 2020 in a 2021 download and fy 2021 in a 2026 one).
 */
function reportEnds(facts: DatedFact[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of facts) {
    if (f.periodClass !== '3M' && f.periodClass !== '9M' && f.periodClass !== 'FY') continue;
    const prev = out.get(f.accn);
    if (prev === undefined || f.end > prev) out.set(f.accn, f.end);
  }
  return out;
}

/**
 * A nine-month value belongs to the filing year of a FY filing when its own filing reports a period that
 * ends in the same fiscal year before the FY filing's: the year's Q3 10-Q for the year's 10-K (91 days
 * apart), next year's Q3 10-Q for next year's 10-K. The 200-day bound separates consecutive years.
 */
function sameFilingYear(fyReportEnd: string, ytdReportEnd: string): boolean {
  const d = dayNumber(fyReportEnd) - dayNumber(ytdReportEnd);
  return d >= 0 && d < 200;
}

/** Period ends seen in the company's durations: fiscal quarter ends (3M and FY ends) and fiscal year ends. */
function periodEnds(facts: DatedFact[]): { quarterEnds: Set<string>; yearEnds: Set<string> } {
  const quarterEnds = new Set<string>();
  const yearEnds = new Set<string>();
  for (const f of facts) {
    if (f.periodClass === '3M') quarterEnds.add(f.end);
    if (f.periodClass === 'FY') {
      quarterEnds.add(f.end);
      yearEnds.add(f.end);
    }
  }
  return { quarterEnds, yearEnds };
}

/**
 * One value per (category, period, filing): the highest-priority concept that filing used. A second copy
 * (the same row listed twice, or the same fact in two downloads) is a duplicate.
 */
function pickPerFiling(
  facts: DatedFact[],
  ledger: FactLedger | undefined,
): { kept: DatedFact[]; conflictingDuplicates: number } {
  let conflictingDuplicates = 0;
  const perFiling = new Map<string, { f: DatedFact; rank: number }>();
  for (const f of facts) {
    const key = `${f.detail_category}|${f.start ?? ''}|${f.end}|${f.accn}`;
    const prev = perFiling.get(key);
    if (!prev || f.conceptRank < prev.rank) {
      perFiling.set(key, { f, rank: f.conceptRank });
      if (prev) ledger?.drop(prev.f.id, 'lower_priority_concept');
    } else if (f.conceptRank > prev.rank) ledger?.drop(f.id, 'lower_priority_concept');
    else if (sameValue(f.value, prev.f.value)) ledger?.drop(f.id, 'duplicate');
    else {
      conflictingDuplicates++;
      ledger?.drop(f.id, 'conflicting_duplicate');
    }
  }
  return { kept: [...perFiling.values()].map(({ f }) => f), conflictingDuplicates };
}

interface CategoryFilings {
  kind: EdgarConceptKind;
  unit: string;
  /** By `start|end`, in first-seen order. */
  periods: Map<string, FilingValue[]>;
}

/** The kept values by category and period, each named by its filing's report end. */
function groupByCategory(kept: DatedFact[], reportEndOf: Map<string, string>): Map<string, CategoryFilings> {
  const byCategory = new Map<string, CategoryFilings>();
  for (const f of kept) {
    let cat = byCategory.get(f.detail_category);
    if (!cat) {
      cat = { kind: f.kind, unit: f.unit, periods: new Map() };
      byCategory.set(f.detail_category, cat);
    }
    const pk = `${f.start ?? ''}|${f.end}`;
    let list = cat.periods.get(pk);
    if (!list) {
      list = [];
      cat.periods.set(pk, list);
    }
    list.push({
      availableAt: f.availableAt,
      value: f.value,
      sourceRef: f.accn,
      start: f.start,
      end: f.end,
      form: f.form,
      reportEnd: reportEndOf.get(f.accn) ?? f.end,
      ids: [f.id],
    });
  }
  return byCategory;
}

/**
 * Accounting of values that reach a series (a quarter or fiscal-year period): each is mapped, unless
 * another filing made public at the same instant replaced it with a different value (mergeVintages
 * keeps the last accession of an instant).
 */
function markReported(ledger: FactLedger | undefined, list: FilingValue[], aux: boolean): void {
  if (!ledger) return;
  const last = new Map<Micros, FilingValue>();
  for (const v of list) {
    const prev = last.get(v.availableAt);
    if (!prev || v.sourceRef > prev.sourceRef) last.set(v.availableAt, v);
  }
  for (const v of list) {
    const kept = last.get(v.availableAt)!;
    const reason = v === kept || sameValue(v.value, kept.value) ? null : 'same_instant_superseded';
    for (const id of v.ids) {
      if (reason) ledger.drop(id, reason);
      else if (aux) ledger.drop(id, 'unknown_concept');
      else ledger.map(id);
    }
  }
}

function dropAll(ledger: FactLedger | undefined, list: FilingValue[], reason: string): void {
  if (ledger) for (const v of list) for (const id of v.ids) ledger.drop(id, reason);
}

/**
 * Q4 = FY − 9-month YTD for each fiscal year with a nine-month value of the same start, added to `q` as
 * derived streams per filing year. Returns how many Q4 periods were derived, the nine-month ids that fed
 * one (`used`) and those that could have (`eligible`).
 */
function deriveQ4FromNineMonths(
  cat: CategoryFilings,
  nines: FilingValue[][],
  q: Map<string, QSlot>,
): { derived: number; used: Set<number>; eligible: Set<number> } {
  let derived = 0;
  const used = new Set<number>();
  const eligible = new Set<number>();
  const ninesByStart = new Map<string, FilingValue[][]>();
  for (const list of nines) {
    const start = list[0].start!;
    ninesByStart.set(start, [...(ninesByStart.get(start) ?? []), list]);
  }
  for (const fyList of cat.periods.values()) {
    const { start: s, end: e } = fyList[0];
    if (s === null || classifyPeriod(s, e) !== 'FY') continue;
    const fyPeriodic = fyList.filter((v) => isPeriodicForm(v.form));
    for (const ytdList of ninesByStart.get(s) ?? []) {
      const q4Start = addDays(ytdList[0].end, 1);
      if (classifyPeriod(q4Start, e) !== '3M') continue;
      const ytdPeriodic = ytdList.filter((v) => isPeriodicForm(v.form));
      // Pair FY and 9M values from filings of the same filing year (the year's own 10-K and Q3
      // 10-Q, or next year's 10-K and Q3 10-Q re-reporting both as comparatives), so a restated FY
      // is not differenced against a 9M from before the restatement. The year is named by the FY
      // filing's report end, never by companyfacts `fy` (see reportEnds).
      const qk = `${q4Start}|${e}`;
      const slot = q.get(qk) ?? { start: q4Start, end: e, reported: [], derived: new Map() };
      let any = false;
      for (const g of new Set(fyPeriodic.map((v) => v.reportEnd))) {
        const ytds = ytdPeriodic.filter((v) => sameFilingYear(g, v.reportEnd));
        for (const v of ytds) for (const id of v.ids) eligible.add(id);
        const events = combineStreams(
          fyPeriodic.filter((v) => v.reportEnd === g),
          ytds,
          (fy, ytd) => {
            for (const id of ytd.ids ?? []) used.add(id);
            return {
              availableAt: 0,
              value: fy.value - ytd.value,
              sourceRef: `derived:Q4=FY(${fy.sourceRef})-9M(${ytd.sourceRef})`,
            };
          },
        );
        if (events.length === 0) continue;
        slot.derived.set(g, [...(slot.derived.get(g) ?? []), ...events]);
        any = true;
      }
      if (!any) continue;
      q.set(qk, slot);
      derived++;
    }
  }
  return { derived, used, eligible };
}

/** Nine-month values serve only the Q4 derivation: mapped when they fed one, else dropped saying why not. */
function accountNineMonths(
  ledger: FactLedger,
  nines: FilingValue[][],
  additive: boolean,
  used: Set<number>,
  eligible: Set<number>,
): void {
  for (const list of nines) {
    for (const v of list) {
      for (const id of v.ids) {
        if (used.has(id)) ledger.map(id);
        else if (!additive) ledger.drop(id, 'nine_months_not_additive');
        else if (!isPeriodicForm(v.form)) ledger.drop(id, 'not_periodic_form');
        else if (eligible.has(id)) ledger.drop(id, 'nine_months_superseded');
        else ledger.drop(id, 'nine_months_unpaired');
      }
    }
  }
}

/**
 * One category's periods: fiscal years (and instants on a year end) become A vintages at once; quarters
 * (and instants on a quarter end) become Q slots, plus derived Q4s for additive currency flows.
 */
function deriveCategory(
  name: string,
  cat: CategoryFilings,
  ends: { quarterEnds: Set<string>; yearEnds: Set<string> },
  options: DeriveQuarterlyOptions,
): { q: Map<string, QSlot>; a: PeriodVintages[]; derivedQ4: number } {
  const ledger = options.ledger;
  const aux = (options.auxiliary ?? new Set<string>()).has(name);
  const q = new Map<string, QSlot>();
  const a: PeriodVintages[] = [];
  const nines: FilingValue[][] = [];
  for (const [pk, list] of cat.periods) {
    const { start, end } = list[0];
    const cls = classifyPeriod(start, end);
    const toQ = cls === '3M' || (cls === 'instant' && ends.quarterEnds.has(end));
    const toA = cls === 'FY' || (cls === 'instant' && ends.yearEnds.has(end));
    if (toQ) q.set(pk, { start, end, reported: list, derived: new Map() });
    if (toA) a.push({ frequency: 'A', start, end, rows: mergeVintages([list]) });
    if (toQ || toA) markReported(ledger, list, aux);
    else if (cls === 'instant') dropAll(ledger, list, 'instant_off_period_end');
    else if (cls === '9M') nines.push(list);
    else dropAll(ledger, list, 'duration_class');
  }
  const additive = cat.kind === 'flow' && /^[A-Z]{3}$/.test(cat.unit);
  const q4 = additive
    ? deriveQ4FromNineMonths(cat, nines, q)
    : { derived: 0, used: new Set<number>(), eligible: new Set<number>() };
  if (ledger) accountNineMonths(ledger, nines, additive, q4.used, q4.eligible);
  return { q, a, derivedQ4: q4.derived };
}

/**
 * Q4 EPS = Q4 net income / Q4 weighted shares for Q4s whose net income was derived, added to `qStreams`.
 * It is a stream below the reported Q4 EPS, which wins from the moment it is known: suppressing the
 * derivation whenever some filing reports the Q4 would let a later download change what was known earlier.
 * Returns how many were derived.
 */
function deriveQ4Eps(qStreams: Map<string, Map<string, QSlot>>, options: DeriveQuarterlyOptions): number {
  const ledger = options.ledger;
  let derivedQ4Eps = 0;
  for (const [eps, { netIncome, shares }] of Object.entries(options.epsFromNetIncome ?? {})) {
    const ni = qStreams.get(netIncome);
    const sh = qStreams.get(shares);
    if (!ni || !sh) continue;
    let epsQ = qStreams.get(eps);
    for (const [pk, niSlot] of ni) {
      const shSlot = sh.get(pk);
      if (niSlot.derived.size === 0 || !shSlot) continue;
      const niRows = mergeVintages(slotStreams(niSlot));
      const shRows = mergeVintages(slotStreams(shSlot)).filter((r) => r.value !== 0);
      const derived = combineStreams(niRows, shRows, (n, d) => {
        if (ledger) for (const id of [...(n.ids ?? []), ...(d.ids ?? [])]) ledger.map(id);
        return {
          availableAt: 0,
          value: n.value / d.value,
          sourceRef: `derived:Q4EPS=NI[${n.sourceRef}]/WSH[${d.sourceRef}]`,
        };
      });
      if (derived.length === 0) continue;
      if (!epsQ) {
        epsQ = new Map();
        qStreams.set(eps, epsQ);
      }
      const slot = epsQ.get(pk) ?? { start: niSlot.start, end: niSlot.end, reported: [], derived: new Map() };
      slot.derived.set('', derived);
      epsQ.set(pk, slot);
      derivedQ4Eps++;
    }
  }
  return derivedQ4Eps;
}

/**
 * Builds the quarterly and annual vintages of each detail category of one company.
 *
 * Q: reported 3-month durations; for additive currency flows, Q4 = FY − 9-month YTD with both from
 * periodic forms (10-K/10-Q and amendments) and the same fiscal-year start, re-derived whenever either
 * side is restated; a reported 3-month Q4 wins over the derived one. Per-share values and share counts are
 * never differenced. Instants go to Q when they fall on a fiscal quarter end seen in the company's
 * durations, and to A when they fall on a fiscal year end. A: fiscal-year durations.
 */
export function deriveQuarterly(
  facts: DatedFact[],
  options: DeriveQuarterlyOptions = {},
): DeriveQuarterlyResult {
  const ends = periodEnds(facts);
  const reportEndOf = reportEnds(facts);
  const { kept, conflictingDuplicates } = pickPerFiling(facts, options.ledger);
  const byCategory = groupByCategory(kept, reportEndOf);

  let derivedQ4 = 0;
  const results = new Map<string, CategoryVintages>();
  // Streams per Q period: the reported values, then derived values per filing year; A periods have
  // only reported values.
  const qStreams = new Map<string, Map<string, QSlot>>();
  for (const [name, cat] of byCategory) {
    const { q, a, derivedQ4: n } = deriveCategory(name, cat, ends, options);
    derivedQ4 += n;
    qStreams.set(name, q);
    results.set(name, { detail_category: name, kind: cat.kind, unit: cat.unit, periods: a });
  }
  const derivedQ4Eps = deriveQ4Eps(qStreams, options);

  for (const [name, q] of qStreams) {
    const res = results.get(name);
    if (!res) continue;
    for (const slot of q.values()) {
      const rows = mergeVintages(slotStreams(slot));
      if (rows.length > 0) res.periods.push({ frequency: 'Q', start: slot.start, end: slot.end, rows });
    }
    res.periods.sort(
      (x, y) =>
        (x.frequency < y.frequency ? -1 : x.frequency > y.frequency ? 1 : 0) ||
        (x.end < y.end ? -1 : x.end > y.end ? 1 : 0),
    );
  }
  return { categories: [...results.values()], derivedQ4, derivedQ4Eps, conflictingDuplicates };
}
