import { unitOfRow } from './parse-taxonomy-tables.ts';
import { RegistryError } from './registry-error.ts';
import {
  EdgarRow,
  EmbeddedRow,
  FredRow,
  MacroPanelRow,
  PriceRow,
  parseRow,
  type RegistrySource,
} from './registry-rows.ts';
import type {
  EdgarConceptEntry,
  EmbeddedSeriesEntry,
  FredCatalogEntry,
  MacroPanelEntry,
  PriceKindEntry,
  Unit,
} from './registry-types.ts';

export interface SourceCatalogs {
  fredCatalog: FredCatalogEntry[];
  edgarConcepts: EdgarConceptEntry[];
  priceKinds: PriceKindEntry[];
  embedded: EmbeddedSeriesEntry[];
  macroPanels: MacroPanelEntry[];
}

/** The source mapping files; every row must land in a unit of `units`. */
export function parseSourceCatalogs(source: RegistrySource, units: readonly Unit[]): SourceCatalogs {
  return {
    fredCatalog: parseFredCatalog(source, units),
    edgarConcepts: parseEdgarConcepts(source, units),
    priceKinds: parsePriceKinds(source, units),
    embedded: parseEmbedded(source, units),
    macroPanels: parseMacroPanels(source, units),
  };
}

function parseFredCatalog(source: RegistrySource, units: readonly Unit[]): FredCatalogEntry[] {
  const out: FredCatalogEntry[] = [];
  const lines = new Map<string, number>();
  for (const row of source.rows('fred-catalog.tsv')) {
    const r = parseRow(FredRow, row);
    const prior = lines.get(r.series_id);
    if (prior !== undefined) {
      throw new RegistryError(row.origin, `duplicate FRED series id '${r.series_id}' (also line ${prior})`);
    }
    lines.set(r.series_id, row.origin.line);
    unitOfRow(units, row, r);
    const entry: FredCatalogEntry = {
      series_id: r.series_id,
      title: r.title,
      unit: r.units,
      frequency: r.frequency,
      scope: r.scope,
      category: r.category,
      detail_category: r.detail_category,
      verified: r.verified,
    };
    if (r.release !== '' && r.release !== '-') entry.release = r.release;
    out.push(entry);
  }
  return out;
}

function parseEdgarConcepts(source: RegistrySource, units: readonly Unit[]): EdgarConceptEntry[] {
  const out: EdgarConceptEntry[] = [];
  for (const row of source.rows('edgar-concepts.tsv')) {
    const r = parseRow(EdgarRow, row);
    if (out.some((e) => e.detail_category === r.detail_category)) {
      throw new RegistryError(row.origin, `duplicate detail category '${r.detail_category}'`);
    }
    // Quarterly values are the FinVerse unit; the matching A unit holds fiscal-year values.
    unitOfRow(units, row, {
      scope: 'Individual',
      category: 'Fundamentals',
      detail_category: r.detail_category,
      frequency: 'Q',
    });
    out.push({
      detail_category: r.detail_category,
      kind: r.kind,
      units: r.units.split(',').map((s) => s.trim()),
      concepts: r.concepts.split(','),
    });
  }
  return out;
}

function parsePriceKinds(source: RegistrySource, units: readonly Unit[]): PriceKindEntry[] {
  const out: PriceKindEntry[] = [];
  for (const row of source.rows('price-kinds.tsv')) {
    const r = parseRow(PriceRow, row);
    if (out.some((p) => p.kind === r.kind && p.field === r.field)) {
      throw new RegistryError(row.origin, `duplicate price kind/field ${r.kind}/${r.field}`);
    }
    unitOfRow(units, row, r);
    out.push(r);
  }
  return out;
}

function parseEmbedded(source: RegistrySource, units: readonly Unit[]): EmbeddedSeriesEntry[] {
  const out: EmbeddedSeriesEntry[] = [];
  for (const row of source.rows('embedded.tsv')) {
    const r = parseRow(EmbeddedRow, row);
    const field = r.field === '-' ? null : r.field;
    const same = (e: EmbeddedSeriesEntry) =>
      e.dataset === r.dataset && e.series === r.series && e.field === field && e.frequency === r.frequency;
    if (out.some(same)) {
      throw new RegistryError(
        row.origin,
        `duplicate embedded series ${r.dataset} / ${r.series} / ${r.field} / ${r.frequency}`,
      );
    }
    unitOfRow(units, row, r);
    out.push({
      dataset: r.dataset,
      series: r.series,
      field,
      scope: r.scope,
      category: r.category,
      detail_category: r.detail_category,
      frequency: r.frequency,
      synthetic: r.synthetic,
    });
  }
  return out;
}

function parseMacroPanels(source: RegistrySource, units: readonly Unit[]): MacroPanelEntry[] {
  const out: MacroPanelEntry[] = [];
  const lines = new Map<string, number>();
  for (const row of source.rows('macro-panels.tsv')) {
    const r = parseRow(MacroPanelRow, row);
    const key = `${r.dataset}\u0000${r.mnemonic}\u0000${r.frequency}`;
    const prior = lines.get(key);
    if (prior !== undefined) {
      throw new RegistryError(
        row.origin,
        `duplicate ${r.dataset} series '${r.mnemonic}' at frequency ${r.frequency} (also line ${prior})`,
      );
    }
    lines.set(key, row.origin.line);
    unitOfRow(units, row, r);
    out.push({
      dataset: r.dataset,
      mnemonic: r.mnemonic,
      title: r.title,
      unit: r.units,
      frequency: r.frequency,
      scope: r.scope,
      category: r.category,
      detail_category: r.detail_category,
    });
  }
  return out;
}
