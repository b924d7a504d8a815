// One implementation for every 'did you mean' (it lives in @asof/schema, below every package).
export { editDistance, nearestNames } from '@asof/schema';
export { classifyPriceSeries, type PriceClassification } from './classify-price-series.ts';
export * from './error-codes.ts';
export {
  compareMetricColumns,
  expandMetricColumns,
  expandUnitTasks,
  type MetricColumn,
  parseUnitKey,
  type UnitTask,
  type UnitTaskRow,
  unitTasks,
} from './expand-metric-columns.ts';
export {
  checkSeriesUnits,
  describeUnknownUnit,
  findUnit,
  lookupUnit,
  UnknownUnitError,
} from './find-unit.ts';
export { HORIZONS, type Horizon, horizonSteps, isHorizon } from './horizon-steps.ts';
export { minimumLookback, predictionLength } from './horizon-table.ts';
export { DEFAULT_REGISTRY_DIR, defaultRegistry, loadRegistry, REGISTRY_FILES } from './load-registry.ts';
export { RegistryError, type RowOrigin } from './registry-error.ts';
export * from './registry-types.ts';
export {
  classifyEmbeddedSeries,
  edgarConceptMap,
  embeddedSeriesMap,
  fredCatalog,
  macroPanelMap,
} from './source-catalogs.ts';
export { type TaxonomyDocument, taxonomyDocument } from './taxonomy-document.ts';
