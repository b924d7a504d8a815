import { defaultRegistry } from './load-registry.ts';
import type {
  EdgarConceptEntry,
  EmbeddedSeriesEntry,
  FredCatalogEntry,
  MacroPanelEntry,
  Registry,
} from './registry-types.ts';

/** The 14 Fundamentals detail categories → ordered us-gaap concept fallbacks (edgar-concepts.tsv). */
export function edgarConceptMap(registry: Registry = defaultRegistry()): EdgarConceptEntry[] {
  return registry.edgarConcepts.map((e) => ({ ...e, units: [...e.units], concepts: [...e.concepts] }));
}

/** FRED series ids → registry units, with FRED's frequency and release (fred-catalog.tsv). */
export function fredCatalog(registry: Registry = defaultRegistry()): FredCatalogEntry[] {
  return registry.fredCatalog.map((e) => ({ ...e }));
}

/** Real-time macro panel series (FRED-MD/QD mnemonics, RTDSM variables) → registry units (macro-panels.tsv). */
export function macroPanelMap(registry: Registry = defaultRegistry()): MacroPanelEntry[] {
  return registry.macroPanels.map((e) => ({ ...e }));
}

/** The embedded default build's series → registry units (embedded.tsv). */
export function embeddedSeriesMap(registry: Registry = defaultRegistry()): EmbeddedSeriesEntry[] {
  return registry.embedded.map((e) => ({ ...e }));
}

/**
 * The classification of one embedded series: an exact (dataset, series, field[, frequency]) row, else the
 * dataset's `*` row for that field. Undefined when the dataset has no rule for it.
 */
export function classifyEmbeddedSeries(
  dataset: string,
  series: string,
  field: string | null = null,
  options: { frequency?: string; registry?: Registry } = {},
): EmbeddedSeriesEntry | undefined {
  const rows = (options.registry ?? defaultRegistry()).embedded.filter(
    (e) =>
      e.dataset === dataset &&
      e.field === field &&
      (options.frequency === undefined || e.frequency === options.frequency),
  );
  return rows.find((e) => e.series === series) ?? rows.find((e) => e.series === '*');
}
