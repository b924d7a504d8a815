import {
  type CompanyfactsConcept,
  type CompanyfactsPayload,
  padCik,
  parseCompanyfactsConcept,
} from './companyfacts-payload.ts';
import type { EdgarConceptKind, EdgarConceptMapping } from './edgar-concept-mapping.ts';
import { FactLedger } from './fact-ledger.ts';

/** What a duration is, from its inclusive length in days (52/53-week fiscal calendars included). */
export type PeriodClass = 'instant' | '3M' | '9M' | 'FY' | 'other';

/** One companyfacts value that belongs to a mapped detail category. */
export interface EdgarFactValue {
  detail_category: string;
  kind: EdgarConceptKind;
  concept: string;
  /** Position of `concept` in the category's fallback list (0 = preferred). */
  conceptRank: number;
  unit: string;
  start: string | null;
  end: string;
  periodClass: PeriodClass;
  value: number;
  accn: string;
  form: string;
  filed: string;
  /** The row's id in the company's FactLedger (its accounting). `fy`, `fp` and `frame` are not kept: they
   * change between downloads of the same filing, so no rule may read them. */
  id: number;
}

export interface ParsedCompanyfacts {
  /** 10-digit zero-padded CIK. */
  cik: string;
  entityName: string;
  /** Taxonomy prefixes present under `facts` (e.g. `dei`, `us-gaap`, `ifrs-full`). */
  taxonomies: string[];
  facts: EdgarFactValue[];
  /** Per detail category, the unit chosen (the first of the mapping's units the company reports). */
  units: Map<string, string>;
  /** Entity names of the downloads, newest first (a company renamed between downloads has two). */
  entityNames: string[];
  /** Input keys of the downloads, newest first. */
  downloads: string[];
}

/** One companyfacts file of a company and its input key (file name or URL). */
export interface CompanyfactsDownload {
  payload: CompanyfactsPayload;
  where: string;
}

/** Days since 1970-01-01 of a YYYY-MM-DD date (civil-from-days arithmetic; no Date allocation per fact). */
export function dayNumber(date: string): number {
  let y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function inclusiveDays(start: string, end: string): number {
  return dayNumber(end) - dayNumber(start) + 1;
}

/**
 * Fiscal quarters run 13 or 14 weeks (91/98 days) or a calendar quarter (90–92 days); fiscal years run
 * 52/53 weeks or a calendar year. The windows are wide enough for those and narrow enough to exclude
 * 6-month YTD values and transition periods.
 */
export function classifyPeriod(start: string | null, end: string): PeriodClass {
  if (start === null) return 'instant';
  const d = inclusiveDays(start, end);
  if (d >= 80 && d <= 100) return '3M';
  if (d >= 255 && d <= 290) return '9M';
  if (d >= 340 && d <= 380) return 'FY';
  return 'other';
}

function splitConcept(name: string): [string, string] {
  const i = name.indexOf(':');
  return i < 0 ? ['us-gaap', name] : [name.slice(0, i), name.slice(i + 1)];
}

/**
 * The unit a companyfacts unit key stands for in a category, or null if the category cannot use it.
 * Downloads made before about 2022 list per-share facts (EPS) under `USD` rather than `USD/shares` (AAPL
 * 2021-07: 530 EPS rows under `USD`, the last filing's 8 under `USD/shares`), so for per-share categories
 * a bare currency key is read as that currency per share.
 */
export function categoryUnit(unitKey: string, m: EdgarConceptMapping): string | null {
  if (m.units.includes(unitKey)) return unitKey;
  if (m.kind === 'per_share' && /^[A-Z]{3}$/.test(unitKey) && m.units.includes(`${unitKey}/shares`))
    return `${unitKey}/shares`;
  return null;
}

/** Fact rows of a concept counted without validating it (concepts asof does not read). */
export function countFactRows(concept: unknown): number {
  const units = (concept as { units?: unknown } | null)?.units;
  if (units === null || typeof units !== 'object') return 0;
  let n = 0;
  for (const rows of Object.values(units)) if (Array.isArray(rows)) n += rows.length;
  return n;
}

interface OpenConcept {
  concept: CompanyfactsConcept;
  /** First ledger id per unit key; rows of a unit have consecutive ids. */
  firstId: Map<string, number>;
}

interface OpenDownload {
  d: CompanyfactsDownload;
  file: number;
  concepts: Map<string, OpenConcept>;
  latestFiled: string;
}

/**
 * Pulls the values of the mapped concepts out of a company's companyfacts downloads and settles, in
 * `ledger`, the rows it can: concepts outside the map (`unknown_concept`) and units a category cannot use
 * (`unit:<key>`). Nothing is selected by `frame` (it keeps only the last-filed value of each period and so
 * leaks restatements): every filing's value is kept, and `fy`/`fp` are ignored because they describe the
 * filing as labelled at download time, not the period. Several downloads of one company are read as the
 * union of their facts, the newest download first, so that a fact SEC later dropped is still read and a
 * fact both hold is one value with the other copy counted `duplicate` downstream.
 */
export function parseCompanyfactsDownloads(
  downloads: CompanyfactsDownload[],
  conceptMap: EdgarConceptMapping[],
  ledger: FactLedger,
): ParsedCompanyfacts {
  const wanted = new Set(conceptMap.flatMap((m) => m.concepts.map((c) => splitConcept(c).join(':'))));
  const open: OpenDownload[] = [];
  const taxonomies = new Set<string>();
  for (const d of downloads) {
    const file = ledger.addFile(d.where);
    const concepts = new Map<string, OpenConcept>();
    let latestFiled = '';
    for (const [prefix, block] of Object.entries(d.payload.facts)) {
      taxonomies.add(prefix);
      for (const [local, raw] of Object.entries(block)) {
        const key = `${prefix}:${local}`;
        if (!wanted.has(key)) {
          ledger.dropBulk(file, 'unknown_concept', countFactRows(raw));
          continue;
        }
        const concept = parseCompanyfactsConcept(raw, `${d.where} facts.${key}`);
        const firstId = new Map<string, number>();
        for (const [unit, rows] of Object.entries(concept.units)) {
          firstId.set(unit, ledger.allocate(file, rows.length));
          for (const f of rows) if (f.filed > latestFiled) latestFiled = f.filed;
        }
        concepts.set(key, { concept, firstId });
      }
    }
    open.push({ d, file, concepts, latestFiled });
  }
  // Newest download first (by its latest filing date; the name need not say): its copy of a fact shared
  // with an older download is the one kept, as SEC may have corrected it since.
  open.sort((a, b) => (a.latestFiled > b.latestFiled ? -1 : a.latestFiled < b.latestFiled ? 1 : 0));

  const facts: EdgarFactValue[] = [];
  const units = new Map<string, string>();
  for (const m of conceptMap) {
    let chosenUnit: string | undefined;
    for (const u of m.units) {
      const reported = open.some((o) =>
        m.concepts.some((name) => {
          const c = o.concepts.get(splitConcept(name).join(':'));
          return (
            c &&
            Object.entries(c.concept.units).some(([k, rows]) => rows.length > 0 && categoryUnit(k, m) === u)
          );
        }),
      );
      if (reported) {
        chosenUnit = u;
        break;
      }
    }
    for (const o of open) {
      m.concepts.forEach((name, rank) => {
        const c = o.concepts.get(splitConcept(name).join(':'));
        if (!c) return;
        // What the filing also reports under the category's unit: a copy of it under another unit key (ISRG's
        // 2010 10-Qs tag each EPS twice, once as `pure`) loses nothing and is counted a duplicate.
        const held = new Set<string>();
        for (const [unitKey, rows] of Object.entries(c.concept.units)) {
          if (categoryUnit(unitKey, m) !== chosenUnit) continue;
          for (const f of rows) held.add(`${f.start ?? ''}|${f.end}|${f.accn}|${f.val}`);
        }
        for (const [unitKey, rows] of Object.entries(c.concept.units)) {
          const first = c.firstId.get(unitKey)!;
          const unit = categoryUnit(unitKey, m);
          if (unit === null || unit !== chosenUnit) {
            rows.forEach((f, i) => {
              const copy = held.has(`${f.start ?? ''}|${f.end}|${f.accn}|${f.val}`);
              ledger.drop(first + i, copy ? 'duplicate' : `unit:${unitKey}`);
            });
            continue;
          }
          rows.forEach((f, i) => {
            const start = f.start ?? null;
            facts.push({
              detail_category: m.detail_category,
              kind: m.kind,
              concept: name,
              conceptRank: rank,
              unit,
              start,
              end: f.end,
              periodClass: classifyPeriod(start, f.end),
              value: f.val,
              accn: f.accn,
              form: f.form,
              filed: f.filed,
              id: first + i,
            });
          });
        }
      });
    }
    if (chosenUnit) units.set(m.detail_category, chosenUnit);
  }
  const newest = open[0]?.d.payload;
  return {
    cik: padCik(newest?.cik ?? 0),
    entityName: newest?.entityName ?? '',
    taxonomies: [...taxonomies],
    facts,
    units,
    entityNames: [...new Set(open.map((o) => o.d.payload.entityName))],
    downloads: open.map((o) => o.d.where),
  };
}

/** One download (see parseCompanyfactsDownloads), with a ledger of its own. */
export function parseCompanyfacts(
  payload: CompanyfactsPayload,
  conceptMap: EdgarConceptMapping[],
  where = 'companyfacts',
): ParsedCompanyfacts {
  return parseCompanyfactsDownloads([{ payload, where }], conceptMap, new FactLedger());
}
