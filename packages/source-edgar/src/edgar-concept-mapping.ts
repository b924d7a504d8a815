/**
 * The shape `@asof/taxonomy`'s `edgarConceptMap()` returns: for each FinVerse Fundamentals detail
 * category, the us-gaap concepts to try in priority order (revenue tags changed over time), the units
 * accepted, and the kind of quantity. The kind decides what may be derived: only `flow` amounts in a
 * currency are additive (Q4 = FY − 9M); `per_share` and `shares` are not; `instant` is a balance-sheet value.
 */
export type EdgarConceptKind = 'flow' | 'instant' | 'per_share' | 'shares';

export interface EdgarConceptMapping {
  detail_category: string;
  kind: EdgarConceptKind;
  units: string[];
  /** Concept names, highest priority first; bare names are us-gaap, `prefix:Name` picks another taxonomy. */
  concepts: string[];
}

/** `EPS Basic` → `eps-basic`, `R And D Expense` → `r-and-d-expense`. */
export function detailCategorySlug(detailCategory: string): string {
  return detailCategory
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
