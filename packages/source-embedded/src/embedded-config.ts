import { SyntheticDate, startNotAfterEnd } from '@asof/schema';
import { z } from 'zod';

const RealData = z
  .object({
    sp500: z
      .boolean()
      .default(true)
      .describe('vega-datasets sp500-2000.csv: S&P 500 daily OHLCV 2000-01-03…2020-04-17'),
    stocks: z.boolean().default(true).describe('vega-datasets stocks.csv: monthly closes of 5 US stocks'),
    us_employment: z
      .boolean()
      .default(true)
      .describe('vega-datasets us-employment.csv: 22 monthly BLS series'),
    unemployment_by_industry: z
      .boolean()
      .default(true)
      .describe('vega-datasets unemployment-across-industries.json: 14 monthly rates'),
    vega_dir: z
      .string()
      .optional()
      .describe('read the vega files from this folder instead of the npm package'),
  })
  .strict();

const Synthetic = z
  .object({
    seed: z.number().int().nonnegative().describe('seed of the counter-based PRNG'),
    start: SyntheticDate,
    end: SyntheticDate,
    instruments: z
      .number()
      .int()
      .min(0)
      .max(100_000)
      .describe('daily OHLCV instruments (GBM, GARCH, regimes, jumps)'),
  })
  .strict()
  .check(startNotAfterEnd);

/** The embedded source: vega-datasets real files and a seeded synthetic daily panel, no network. */
export const EmbeddedConfig = z
  .object({
    real: RealData.optional().describe(
      'vega-datasets real files: sp500, stocks, us_employment, unemployment_by_industry',
    ),
    synthetic: Synthetic.optional().describe(
      'seeded synthetic daily OHLCV panel: seed, start, end, instruments',
    ),
  })
  .strict();
export type EmbeddedConfig = z.infer<typeof EmbeddedConfig>;
