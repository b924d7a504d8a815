import { z } from 'zod';
import { IsoDate } from './iso-date.ts';

const RealData = z
  .object({
    sp500: z.boolean().default(true).describe('vega-datasets sp500-2000.csv: S&P 500 daily OHLCV 2000-01-03…2020-04-17'),
    stocks: z.boolean().default(true).describe('vega-datasets stocks.csv: monthly closes of 5 US stocks'),
    us_employment: z.boolean().default(true).describe('vega-datasets us-employment.csv: 22 monthly BLS series'),
    unemployment_by_industry: z
      .boolean()
      .default(true)
      .describe('vega-datasets unemployment-across-industries.json: 14 monthly rates'),
    vega_dir: z.string().optional().describe('read the vega files from this folder instead of the npm package'),
  })
  .strict();

const Synthetic = z
  .object({
    seed: z.number().int().nonnegative().describe('seed of the counter-based PRNG'),
    start: IsoDate,
    end: IsoDate,
    instruments: z.number().int().min(0).max(100_000).describe('daily OHLCV instruments'),
    companies: z.number().int().min(0).max(100_000).describe('companies with quarterly fundamentals'),
    macro_series: z.number().int().min(0).max(100_000).describe('monthly/quarterly macro series with revisions'),
  })
  .strict();

export const EmbeddedSource = z
  .object({
    real: RealData.optional(),
    synthetic: Synthetic.optional(),
  })
  .strict();

export const PipelineConfig = z
  .object({
    $schema: z.string().optional(),
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'use lower-case letters, digits and dashes'),
    description: z.string().optional(),
    eval_start: IsoDate.default('2020-01-01').describe('first evaluation origin date (SPEC §8)'),
    duckdb: z
      .object({
        threads: z.number().int().min(1).max(256).default(2),
        memory_limit: z.string().default('60%').describe("DuckDB memory_limit: '8GB' or a share of RAM like '60%'"),
        temp_directory: z.string().optional().describe('where DuckDB spills when over the memory limit'),
      })
      .strict()
      .default({ threads: 2, memory_limit: '60%' }),
    sources: z
      .object({
        embedded: EmbeddedSource.optional(),
      })
      .strict(),
  })
  .strict();
export type PipelineConfig = z.infer<typeof PipelineConfig>;
export type PipelineInput = z.input<typeof PipelineConfig>;
