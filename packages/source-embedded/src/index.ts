export { EmbeddedConfig } from './embedded-config.ts';
export { embeddedSource } from './embedded-source.ts';
export { SOURCE_EMBEDDED_ERRORS } from './error-codes.ts';
export {
  generateSyntheticPrices,
  priceProcessOf,
  simulateLogReturns,
  syntheticInstrumentId,
} from './generate-synthetic-prices.ts';
export { vegaDataDir } from './read-vega-real.ts';
export { tradingSessionGrid } from './trading-session-grid.ts';
