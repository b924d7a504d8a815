import type { Frequency } from '@asof/schema';
import {
  defaultRegistry,
  type FredCatalogEntry,
  fredCatalog,
  lookupUnit,
  type MacroPanelEntry,
  macroPanelMap,
  type Registry,
} from '@asof/taxonomy';
import type { FredmdDataset } from './parse-fredmd-csv.ts';

/** Where the taxonomy placement of FRED-MD/QD series comes from (default: the package's registry). */
export interface FredmdPlacementOptions {
  /** Registry whose units placements must name (default `defaultRegistry()`). */
  registry?: Registry;
  /** FRED catalog entries (default: the registry's fred-catalog.tsv). */
  catalog?: readonly FredCatalogEntry[];
  /** Macro panel rows (default: the registry's macro-panels.tsv). */
  panels?: readonly MacroPanelEntry[];
}

export interface FredmdPlacement {
  scope: string;
  category: string;
  detail_category: string;
  title: string;
  unit: string;
  /** Which registry file placed it. */
  from: 'macro-panels.tsv' | 'fred-catalog.tsv';
}

/**
 * `fredmd:<mnemonic>` / `fredqd:<mnemonic>`. Series ids allow letters, digits and `_ . - : / ^ =`, so each run
 * of other characters in FRED-MD's own names becomes one `_` (`S&P 500` → `fredmd:S_P_500`, `S&P: indust` →
 * `fredmd:S_P_indust`); FRED ids (`INDPRO`) are kept as they are. `source_key` keeps the name as written.
 */
export function fredmdSeriesId(dataset: FredmdDataset, mnemonic: string): string {
  const key = mnemonic.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^_+|_+$/g, '');
  return `${dataset}:${key === '' ? '_' : key}`;
}

/** McCracken & Ng's transformation codes (the `Transform:` row), for series titles. */
export const TCODES: Readonly<Record<string, string>> = {
  '1': 'x',
  '2': 'Δx',
  '3': 'Δ²x',
  '4': 'log x',
  '5': 'Δlog x',
  '6': 'Δ²log x',
  '7': 'Δ(x/x₋₁ − 1)',
};

/** Resolves placements once per (dataset, mnemonic, frequency). */
export class FredmdPlacements {
  private readonly cache = new Map<string, FredmdPlacement | undefined>();
  private readonly registry: Registry;
  private readonly catalog: readonly FredCatalogEntry[];
  private readonly panels: readonly MacroPanelEntry[];

  constructor(options: FredmdPlacementOptions = {}) {
    this.registry = options.registry ?? defaultRegistry();
    this.catalog = options.catalog ?? fredCatalog(this.registry);
    this.panels = options.panels ?? macroPanelMap(this.registry);
  }

  /**
   * A macro-panels.tsv row for (dataset, mnemonic, frequency), else the FRED catalog's row for the mnemonic
   * as a FRED id when the registry has its unit at the panel's frequency (FRED-QD's quarterly INDPRO has
   * no quarterly Activity unit, so it stays unplaced). Undefined = not placed: never guessed.
   */
  placement(dataset: FredmdDataset, mnemonic: string, frequency: Frequency): FredmdPlacement | undefined {
    const key = `${dataset}\u0000${mnemonic}\u0000${frequency}`;
    if (this.cache.has(key)) return this.cache.get(key);
    let out: FredmdPlacement | undefined;
    const row = this.panels.find(
      (p) => p.dataset === dataset && p.mnemonic === mnemonic && p.frequency === frequency,
    );
    if (row !== undefined) {
      out = { ...pick(row), title: row.title, unit: row.unit, from: 'macro-panels.tsv' };
    } else {
      const fred = this.catalog.find((c) => c.series_id === mnemonic);
      if (fred !== undefined && lookupUnit(this.registry, { ...pick(fred), frequency }) !== undefined) {
        out = { ...pick(fred), title: fred.title, unit: fred.unit, from: 'fred-catalog.tsv' };
      }
    }
    this.cache.set(key, out);
    return out;
  }
}

function pick(r: { scope: string; category: string; detail_category: string }) {
  return { scope: r.scope, category: r.category, detail_category: r.detail_category };
}
