import type { AtomicSink } from '@asof/schema';
import type { EmbeddedConfig } from './embedded-config.ts';
import { generateSyntheticPrices } from './generate-synthetic-prices.ts';
import {
  readVegaSp500,
  readVegaStocks,
  readVegaUnemployment,
  readVegaUsEmployment,
  vegaDataDir,
} from './read-vega-real.ts';

/**
 * Runs the embedded sources of a pipeline (no network): vega-datasets real data and the synthetic price
 * panel. Synthetic fundamentals and macro series come in the sources' own raw formats (companyfacts JSON,
 * ALFRED JSON) through their parsers; the build runs those from `sources.edgar.synthetic` and
 * `sources.fred.synthetic`.
 */
export function ingestEmbedded(
  config: EmbeddedConfig,
  sink: AtomicSink,
  log: (line: string) => void = () => {},
): void {
  if (config.real) {
    const ctx = { dir: config.real.vega_dir ?? vegaDataDir(), sink };
    if (config.real.sp500) readVegaSp500(ctx);
    if (config.real.stocks) readVegaStocks(ctx);
    if (config.real.us_employment) readVegaUsEmployment(ctx);
    if (config.real.unemployment_by_industry) readVegaUnemployment(ctx);
    log('embedded: vega-datasets real data read');
    sink.addWarning({
      code: 'SURVIVORSHIP',
      message:
        'vega-datasets series are a static universe chosen after the fact (survivorship bias): do not read cross-sectional results on them as point-in-time',
    });
    sink.addWarning({
      code: 'RULE_BASED_AVAILABLE_AT',
      message:
        'vega-datasets series carry no release dates: available_at follows the release rules of docs/decisions/0004-available-at-rules.md (index bars at 16:00 New York, BLS data on the first Friday of the next month 08:30 New York)',
    });
  }
  const syn = config.synthetic;
  if (syn) {
    generateSyntheticPrices(
      { seed: syn.seed, start: syn.start, end: syn.end, instruments: syn.instruments },
      sink,
    );
    log(`embedded: ${syn.instruments} synthetic instruments generated`);
    sink.addWarning({
      code: 'SYNTHETIC',
      message:
        'series with ids starting syn: are synthetic (seeded GBM, GARCH(1,1), two-regime and jump processes), not market data',
    });
  }
}
