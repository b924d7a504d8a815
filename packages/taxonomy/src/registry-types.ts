import type { Frequency } from '@asof/schema';
import type { Horizon } from './horizon-steps.ts';

/** FinVerse's three evaluation aspects. */
export const ASPECTS = ['Point-wise', 'Cross-sectional', 'Portfolio'] as const;
export type Aspect = (typeof ASPECTS)[number];

/** FinVerse's metric families, in the order columns are listed. DHR/D2HR are ΔHR/Δ²HR. */
export const METRICS = [
  'HR',
  'DHR',
  'D2HR',
  'MASE_rel',
  'MASE_abs',
  'MASE_ori',
  'IC',
  'return',
  'vol',
  'Sharpe',
  'MDD',
] as const;
export type Metric = (typeof METRICS)[number];

/** The aspect each metric family belongs to (an assignment row may not mix aspects). */
export const METRIC_ASPECT: Record<Metric, Aspect> = {
  HR: 'Point-wise',
  DHR: 'Point-wise',
  D2HR: 'Point-wise',
  MASE_rel: 'Point-wise',
  MASE_abs: 'Point-wise',
  MASE_ori: 'Point-wise',
  IC: 'Cross-sectional',
  return: 'Portfolio',
  vol: 'Portfolio',
  Sharpe: 'Portfolio',
  MDD: 'Portfolio',
};

/** The variant id that carries no (p,h) combinations: MASE_ori is scored over the whole horizon. */
export const NO_VARIANT = 'N/A';

export interface UnitRef {
  scope: string;
  category: string;
  detail_category: string;
  frequency: Frequency;
}

/** A detail-category–frequency unit (one row of units.tsv). */
export interface Unit extends UnitRef {
  key: string;
  eval_target: boolean;
  finverse: boolean;
  line: number;
}

/** One row of assignments.tsv: an evaluated unit's metric families under one variant. */
export interface Assignment extends UnitRef {
  unit_key: string;
  aspect: Aspect;
  metrics: Metric[];
  variant: string;
  finverse: boolean;
  line: number;
}

export interface PH {
  p: Horizon;
  h: Horizon;
}

export interface Variant {
  id: string;
  /** Empty for N/A. */
  combinations: PH[];
  line: number;
}

export interface HorizonRow {
  frequency: Frequency;
  prediction_length: number;
  minimum_lookback: number;
}

export interface ScopeEntry {
  name: string;
  finverse: boolean;
}
export interface CategoryEntry {
  scope: string;
  name: string;
  finverse: boolean;
}
export interface DetailCategoryEntry {
  scope: string;
  category: string;
  name: string;
  finverse: boolean;
}

export interface FredCatalogEntry extends UnitRef {
  series_id: string;
  title: string;
  /** FRED's units label (Percent, Index 1982-1984=100…): the series' unit when a download carries none. */
  unit: string;
  release?: string;
  /** false: the id is believed to exist on FRED but was not checked against the live API. */
  verified: boolean;
}

export type EdgarKind = 'flow' | 'instant' | 'per_share' | 'shares';
export interface EdgarConceptEntry {
  detail_category: string;
  kind: EdgarKind;
  /** companyfacts unit keys accepted, in preference order (e.g. USD, USD/shares, shares). */
  units: string[];
  /** us-gaap concepts, in fallback order: the first one a company reports for a period wins. */
  concepts: string[];
}

export const PRICE_KINDS = [
  'equity',
  'etf',
  'country_index',
  'regional_index',
  'us_equity_index',
  'commodity_etf_broad',
  'commodity_etf_single',
  'commodity_etf_thematic',
  'crypto',
  'crypto_other',
] as const;
export type PriceKind = (typeof PRICE_KINDS)[number];
export const PRICE_FIELDS = ['open', 'high', 'low', 'close', 'volume'] as const;
export type PriceField = (typeof PRICE_FIELDS)[number];

export interface PriceKindEntry extends UnitRef {
  kind: PriceKind;
  field: PriceField;
}

/** How one series of the embedded default build is classified. */
export interface EmbeddedSeriesEntry extends UnitRef {
  /** vega-datasets file name, or `synthetic-prices` / `synthetic-fundamentals` / `synthetic-macro`. */
  dataset: string;
  /** Column, symbol or series name inside the dataset; `*` = every series of that dataset and field. */
  series: string;
  /** OHLCV field for price data, else null. */
  field: string | null;
  synthetic: boolean;
}

/** Data sets of real-time macro panels whose series the registry places (macro-panels.tsv). */
export const MACRO_PANEL_DATASETS = ['fredmd', 'fredqd', 'rtdsm'] as const;
export type MacroPanelDataset = (typeof MACRO_PANEL_DATASETS)[number];

/**
 * One series of a real-time macro panel (FRED-MD / FRED-QD mnemonic, Philadelphia Fed RTDSM variable) →
 * registry unit. FRED-MD mnemonics that are FRED ids of fred-catalog.tsv need no row (the catalog places
 * them); a row here wins over the catalog.
 */
export interface MacroPanelEntry extends UnitRef {
  dataset: MacroPanelDataset;
  /** The name as the panel's header writes it (`RETAILx`, `S&P 500`, `ROUTPUT`). */
  mnemonic: string;
  title: string;
  /** The values' unit as the panel publishes them. */
  unit: string;
}

export interface RegistryFile {
  name: string;
  path: string;
  sha256: string;
  bytes: number;
}

/** A loaded registry. Treat it as immutable: lookups index its arrays once (by identity). */
export interface Registry {
  dir: string;
  units: Unit[];
  assignments: Assignment[];
  variants: Variant[];
  horizons: HorizonRow[];
  scopes: ScopeEntry[];
  categories: CategoryEntry[];
  detailCategories: DetailCategoryEntry[];
  fredCatalog: FredCatalogEntry[];
  edgarConcepts: EdgarConceptEntry[];
  priceKinds: PriceKindEntry[];
  embedded: EmbeddedSeriesEntry[];
  macroPanels: MacroPanelEntry[];
  /** Facts kept as FinVerse published them although they are odd (e.g. a 1w horizon on a monthly unit). */
  warnings: string[];
  /** Every registry file, sorted by name, for hashing into the manifest. */
  files: RegistryFile[];
}

/** The stable key of a unit: "scope / category / detail_category / frequency". */
export function unitKey(ref: UnitRef): string {
  return `${ref.scope} / ${ref.category} / ${ref.detail_category} / ${ref.frequency}`;
}
