import { z } from 'zod';
import { IsoDate } from './iso-date.ts';

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
    start: IsoDate,
    end: IsoDate,
    instruments: z
      .number()
      .int()
      .min(0)
      .max(100_000)
      .describe('daily OHLCV instruments (GBM, GARCH, regimes, jumps)'),
  })
  .strict();

const Seed = z.number().int().nonnegative().describe('seed of the counter-based PRNG');
const Tickers = z.array(z.string().regex(/^[A-Za-z0-9.\-^=]+$/, 'a ticker such as AAPL or BRK-B')).min(1);

/** SEC EDGAR fundamentals: live by ticker, offline from a raw directory, or synthetic companyfacts JSON. */
export const EdgarSource = z
  .object({
    tickers: Tickers.optional().describe('live: needs ASOF_SEC_USER_AGENT'),
    raw_dir: z
      .string()
      .optional()
      .describe('offline replay of companyfacts/submissions/company_tickers JSON files'),
    cache_dir: z
      .string()
      .optional()
      .describe('content-addressed raw-response cache (default .asof-cache/http)'),
    offline: z.boolean().default(false).describe('serve live requests only from the cache'),
    synthetic: z
      .object({
        seed: Seed,
        companies: z.number().int().min(1).max(100_000),
        first_fiscal_year: z.number().int().min(1990).max(2100),
        fiscal_years: z.number().int().min(1).max(100),
      })
      .strict()
      .optional()
      .describe('synthetic companyfacts + submissions JSON run through the EDGAR parser'),
  })
  .strict();

/** FRED/ALFRED: live by series id or the whole catalog, offline from a raw directory, or synthetic ALFRED JSON. */
export const FredSource = z
  .object({
    series: z
      .array(z.string().regex(/^[A-Za-z0-9_]+$/, 'a FRED id such as GDP'))
      .min(1)
      .optional(),
    catalog: z.boolean().default(false).describe("live: pull every id of the taxonomy's FRED catalog"),
    raw_dir: z.string().optional().describe('offline replay of FRED API JSON responses and fredgraph CSVs'),
    cache_dir: z.string().optional(),
    offline: z.boolean().default(false),
    synthetic: z
      .object({ seed: Seed, start: IsoDate, end: IsoDate, count: z.number().int().min(1).max(10_000) })
      .strict()
      .optional()
      .describe('synthetic ALFRED JSON with revisions, missing values and a release calendar'),
  })
  .strict();

/** Daily prices: live Yahoo by symbol, offline raw files (Yahoo chart JSON, Stooq CSV), or synthetic Yahoo JSON. */
export const PricesSource = z
  .object({
    symbols: Tickers.optional().describe('live Yahoo chart download (optional path; the site may refuse)'),
    raw_dir: z.string().optional(),
    cache_dir: z.string().optional(),
    total_return: z
      .boolean()
      .default(false)
      .describe('also build a point-in-time total-return index per equity'),
    vendor_lag_seconds: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe('added to each bar close for available_at'),
    synthetic: z
      .object({ seed: Seed })
      .strict()
      .optional()
      .describe('synthetic Yahoo chart JSON with splits and dividends run through the prices parser'),
  })
  .strict();

/**
 * A synthetic universe with FinVerse Table 1's shape, generated inside DuckDB (SPEC §12): per registry unit,
 * round(series × scale) series whose history lengths follow FinVerse's points per series.
 */
export const ScaleSource = z
  .object({
    seed: Seed,
    scale: z
      .number()
      .positive()
      .max(4)
      .default(1)
      .describe('share of FinVerse series counts (1 ≈ 116,897 series and 171M observations)'),
    end: IsoDate.default('2025-06-27').describe('last period end of every history'),
    revision_share: z
      .number()
      .min(0)
      .max(1)
      .default(0.1)
      .describe('share of macro values that get one later revision (basis vintage)'),
    restatement_share: z
      .number()
      .min(0)
      .max(1)
      .default(0.05)
      .describe('share of fundamentals values restated in a later filing'),
  })
  .strict();
export type ScaleSource = z.infer<typeof ScaleSource>;

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
        memory_limit: z
          .string()
          .default('60%')
          .describe("DuckDB memory_limit: '8GB' or a share of RAM like '60%'"),
        temp_directory: z.string().optional().describe('where DuckDB spills when over the memory limit'),
        storage: z
          .enum(['memory', 'file'])
          .optional()
          .describe(
            "where the build's working tables live: 'memory' (default) or 'file', a temporary DuckDB database file beside the spill folder, removed after the build. DuckDB compresses tables on disk (about 6x for observations), so at FinVerse scale the working set fits the memory limit instead of spilling uncompressed",
          ),
      })
      .strict()
      .default({ threads: 2, memory_limit: '60%' }),
    sources: z
      .object({
        embedded: EmbeddedSource.optional(),
        edgar: EdgarSource.optional(),
        fred: FredSource.optional(),
        prices: PricesSource.optional(),
        scale: ScaleSource.optional(),
      })
      .strict(),
  })
  .strict();
export type PipelineConfig = z.infer<typeof PipelineConfig>;
export type PipelineInput = z.input<typeof PipelineConfig>;
