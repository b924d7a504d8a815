import { type CompanyfactsPayload, padCik, parseCompanyfactsConcept } from './companyfacts-payload.ts';
import type { EdgarConceptKind, EdgarConceptMapping } from './edgar-concept-mapping.ts';

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
  /** The filing's fiscal year (companyfacts `fy`): it says which filing this is, not which period. */
  filingFy: number | null;
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
  /** Values dropped because they were in a second unit of the same category. */
  droppedOtherUnit: number;
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
 * Pulls the values of the mapped concepts out of a companyfacts payload. Nothing is selected by `frame`
 * (it keeps only the last-filed value of each period and so leaks restatements): every filing's value is
 * kept, and `fy`/`fp` are ignored because they describe the filing, not the period.
 */
export function parseCompanyfacts(
  payload: CompanyfactsPayload,
  conceptMap: EdgarConceptMapping[],
  where = 'companyfacts',
): ParsedCompanyfacts {
  const concepts = new Map<string, ReturnType<typeof parseCompanyfactsConcept> | undefined>();
  const conceptOf = (prefix: string, local: string) => {
    const key = `${prefix}:${local}`;
    if (!concepts.has(key)) {
      const raw = payload.facts[prefix]?.[local];
      concepts.set(
        key,
        raw === undefined ? undefined : parseCompanyfactsConcept(raw, `${where} facts.${key}`),
      );
    }
    return concepts.get(key);
  };
  const facts: EdgarFactValue[] = [];
  const units = new Map<string, string>();
  let droppedOtherUnit = 0;
  for (const m of conceptMap) {
    let chosenUnit: string | undefined;
    m.concepts.forEach((name, rank) => {
      const [prefix, local] = splitConcept(name);
      const concept = conceptOf(prefix, local);
      if (!concept) return;
      for (const unit of m.units) {
        const rows = concept.units[unit];
        if (!rows || rows.length === 0) continue;
        chosenUnit ??= unit;
        if (unit !== chosenUnit) {
          droppedOtherUnit += rows.length;
          continue;
        }
        for (const f of rows) {
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
            filingFy: f.fy ?? null,
          });
        }
      }
    });
    if (chosenUnit) units.set(m.detail_category, chosenUnit);
  }
  return {
    cik: padCik(payload.cik),
    entityName: payload.entityName,
    taxonomies: Object.keys(payload.facts),
    facts,
    units,
    droppedOtherUnit,
  };
}
