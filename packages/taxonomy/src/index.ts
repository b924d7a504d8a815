export { classifyPriceSeries, type PriceClassification } from './classify-price-series.ts';
export { TAXONOMY_ERRORS } from './error-codes.ts';
export { expandMetricColumns, expandUnitTasks, unitTasks } from './expand-metric-columns.ts';
export { checkSeriesUnits, findUnit, lookupUnit, UnknownUnitError } from './find-unit.ts';
export { horizonSteps } from './horizon-steps.ts';
export { minimumLookback, predictionLength } from './horizon-table.ts';
export { DEFAULT_REGISTRY_DIR, defaultRegistry, loadRegistry } from './load-registry.ts';
export {
  type FredCatalogEntry,
  type MacroPanelEntry,
  PRICE_KINDS,
  type PriceField,
  type PriceKind,
  type Registry,
  unitKey,
} from './registry-types.ts';
export { edgarConceptMap, fredCatalog, macroPanelMap } from './source-catalogs.ts';
export { taxonomyDocument } from './taxonomy-document.ts';
