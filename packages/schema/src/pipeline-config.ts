import { z } from 'zod';
import { IsoDate } from './iso-date.ts';
import { DEFAULT_UNIVERSE_MEMORY_LIMIT, MEMORY_LIMIT_RANGE, memoryLimitProblem } from './memory-limit.ts';

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

/** The last date a synthetic history may end on. */
export const SYNTHETIC_LAST_DATE = '2999-12-31';

/**
 * A date of a synthetic history: its releases and revisions are dated after its end, so an end near 9999
 * would make dates no one typed (`+010000-01`); refused here, naming the field and the value (audit 15.9).
 */
const SyntheticDate = IsoDate.refine((d) => d <= SYNTHETIC_LAST_DATE, {
  error: (issue) =>
    `${JSON.stringify(issue.input)} is later than ${SYNTHETIC_LAST_DATE}, the last date a synthetic history may end on (its releases and revisions are dated after it)`,
});

/** An empty date range is a typo, not a request for nothing: refuse end before start. */
function startNotAfterEnd(ctx: z.core.ParsePayload<{ start: string; end: string }>): void {
  const { start, end } = ctx.value;
  if (start > end) {
    ctx.issues.push({
      code: 'custom',
      input: ctx.value,
      path: ['end'],
      message: `the range ${start} … ${end} is empty: end is before start; swap them or fix the typo`,
    });
  }
}

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

const Seed = z.number().int().nonnegative().describe('seed of the counter-based PRNG');
const Tickers = z.array(z.string().regex(/^[A-Za-z0-9.\-^=]+$/, 'a ticker such as AAPL or BRK-B')).min(1);

/**
 * The synthetic EDGAR generator builds every company's companyfacts and submissions JSON before the parser
 * reads them, so its memory grows with companies × fiscal years. Measured builds (docs/decisions/0062):
 * 10,000 company-years peak at 2.1–2.85 GB RSS (500 × 20, 200 × 50, 100 × 100, 10,000 × 1); 30,000 (1,500 ×
 * 20) at 3.6 GB, slowed 4× by garbage collection; 100,000 (1,000 × 100, 5,000 × 20) run Node out of heap.
 */
export const SYNTHETIC_EDGAR_MAX_COMPANY_YEARS = 10_000;

function edgarCompanyYearsFit(ctx: z.core.ParsePayload<{ companies: number; fiscal_years: number }>): void {
  const { companies, fiscal_years } = ctx.value;
  const product = companies * fiscal_years;
  // More companies than company-years is reported by the field's own maximum.
  if (product <= SYNTHETIC_EDGAR_MAX_COMPANY_YEARS || companies > SYNTHETIC_EDGAR_MAX_COMPANY_YEARS) return;
  const n = (x: number) => x.toLocaleString('en-US');
  ctx.issues.push({
    code: 'custom',
    input: ctx.value,
    path: ['companies'],
    message: `companies × fiscal_years is ${n(companies)} × ${n(fiscal_years)} = ${n(product)} company-years, above the ${n(SYNTHETIC_EDGAR_MAX_COMPANY_YEARS)} the synthetic EDGAR generator holds in memory (1,000 × 100 ran Node out of heap); lower companies or fiscal_years (docs/decisions/0062)`,
  });
}

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
        companies: z
          .number()
          .int()
          .min(1)
          .max(
            SYNTHETIC_EDGAR_MAX_COMPANY_YEARS,
            `at most ${SYNTHETIC_EDGAR_MAX_COMPANY_YEARS.toLocaleString('en-US')} companies: the synthetic EDGAR generator holds every company's files in memory (docs/decisions/0062)`,
          ),
        first_fiscal_year: z.number().int().min(1990).max(2100),
        fiscal_years: z.number().int().min(1).max(100),
      })
      .strict()
      .check(edgarCompanyYearsFit)
      .optional()
      .describe('synthetic companyfacts + submissions JSON run through the EDGAR parser'),
  })
  .strict();

/**
 * The synthetic ALFRED generator builds every series' JSON (observations and vintages) before the parser
 * reads them, so its memory grows with series × calendar years, and the range had no bound at all. Measured
 * builds (docs/decisions/0062): 2,100 series over 1926–2025 peak at 5.5 GB RSS in 220 s, 10,000 over
 * 2005–2025 at 5.9 GB in 211 s, 10,000 over 1976–2025 (500,000 series-years) at 8.9 GB in 324 s. The bound is
 * that largest measured run; beyond it, nothing was measured.
 */
export const SYNTHETIC_ALFRED_MAX_SERIES_YEARS = 500_000;

function alfredSeriesYearsFit(ctx: z.core.ParsePayload<{ start: string; end: string; count: number }>): void {
  const { start, end, count } = ctx.value;
  const years = Number(end.slice(0, 4)) - Number(start.slice(0, 4)) + 1;
  if (!Number.isFinite(years) || years < 1 || count * years <= SYNTHETIC_ALFRED_MAX_SERIES_YEARS) return;
  const n = (x: number) => x.toLocaleString('en-US');
  ctx.issues.push({
    code: 'custom',
    input: ctx.value,
    path: ['count'],
    message: `count × calendar years of ${start} … ${end} is ${n(count)} × ${n(years)} = ${n(count * years)} series-years, above the ${n(SYNTHETIC_ALFRED_MAX_SERIES_YEARS)} the synthetic ALFRED generator was measured to hold in memory (10,000 series over 50 years); lower count or shorten the range (docs/decisions/0062)`,
  });
}

/** FRED/ALFRED: live by series id or the whole catalog, offline from a raw directory, or synthetic ALFRED JSON. */
export const FredSource = z
  .object({
    series: z
      .array(z.string().regex(/^[A-Za-z0-9_]+$/, 'a FRED id such as GDP'))
      .min(1)
      .optional()
      .describe('live: FRED ids with all their ALFRED vintages; needs ASOF_FRED_API_KEY'),
    catalog: z.boolean().default(false).describe("live: pull every id of the taxonomy's FRED catalog"),
    raw_dir: z.string().optional().describe('offline replay of FRED API JSON responses and fredgraph CSVs'),
    cache_dir: z
      .string()
      .optional()
      .describe('content-addressed raw-response cache (default .asof-cache/http)'),
    offline: z.boolean().default(false).describe('serve live requests only from the cache'),
    allow_partial: z
      .boolean()
      .optional()
      .describe(
        'catalog runs: build from the series that succeeded when some failed (at most half); they are listed as warnings in the manifest',
      ),
    synthetic: z
      .object({
        seed: Seed,
        start: SyntheticDate,
        end: SyntheticDate,
        count: z.number().int().min(1).max(10_000),
      })
      .strict()
      .check(startNotAfterEnd)
      .check(alfredSeriesYearsFit)
      .optional()
      .describe('synthetic ALFRED JSON with revisions, missing values and a release calendar'),
  })
  .strict()
  .check((ctx) => {
    if (ctx.value.allow_partial === true && !ctx.value.catalog) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        path: ['allow_partial'],
        message: 'allow_partial applies to catalog runs only: set "catalog": true, or remove it',
      });
    }
  });

/** Daily prices: live Yahoo by symbol, offline raw files (Yahoo chart JSON, Stooq CSV), or synthetic Yahoo JSON. */
export const PricesSource = z
  .object({
    symbols: Tickers.optional().describe('live Yahoo chart download (optional path; the site may refuse)'),
    raw_dir: z
      .string()
      .optional()
      .describe(
        'offline price files, each format detected from its header and shape (packages/source-prices/README.md)',
      ),
    cache_dir: z
      .string()
      .optional()
      .describe('content-addressed raw-response cache (default .asof-cache/http)'),
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
    membership: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe(
        'index membership CSV files (entity_id,universe,action,effective_date,announced[,note]; packages/source-prices/README.md): which entities the cross-sections hold at each origin, from each change announcement on',
      ),
  })
  .strict();

/** FRED-MD / FRED-QD monthly vintage files (McCracken–Ng): each file a full panel as published that month. */
export const FredmdSource = z
  .object({
    raw_dir: z
      .string()
      .describe(
        'a folder of FRED-MD or FRED-QD vintage CSVs, each with its vintage YYYY-MM in its name (2020-01.csv, fredmd_vintage_2020-01.csv)',
      ),
    vintage: z
      .string()
      .regex(/^\d{4}-\d{2}$/, 'a vintage month such as 2024-03')
      .optional()
      .describe('the vintage (YYYY-MM) of a folder whose one file has no date in its name (current.csv)'),
  })
  .strict();

/** Philadelphia Fed Real-Time Data Set files: one column per vintage (ROUTPUT65Q4 …), one row per period. */
export const RtdsmSource = z
  .object({
    raw_dir: z
      .string()
      .describe(
        'a folder of RTDSM CSVs (first column DATE as 1947:Q1 or 1947:01, then one column per vintage)',
      ),
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
    end: SyntheticDate.default('2025-06-27').describe('last period end of every history'),
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
    real: RealData.optional().describe(
      'vega-datasets real files: sp500, stocks, us_employment, unemployment_by_industry',
    ),
    synthetic: Synthetic.optional().describe(
      'seeded synthetic daily OHLCV panel: seed, start, end, instruments',
    ),
  })
  .strict();

// What DuckDB's memory_limit takes (a size with a unit; checked against the pinned DuckDB) within the range
// asof runs in, plus the share of physical memory that @asof/duck turns into a size (memory-limit.ts).
function checkMemoryLimit(ctx: z.core.ParsePayload<string>): void {
  const problem = memoryLimitProblem(ctx.value);
  if (problem !== null) {
    ctx.issues.push({ code: 'custom', input: ctx.value, message: `${problem}; write ${MEMORY_LIMIT_RANGE}` });
  }
}

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
          .check(checkMemoryLimit)
          .default('60%')
          .describe(
            `DuckDB memory_limit: ${MEMORY_LIMIT_RANGE}; the default universe builds at ${DEFAULT_UNIVERSE_MEMORY_LIMIT}`,
          ),
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
        fredmd: FredmdSource.optional(),
        rtdsm: RtdsmSource.optional(),
        scale: ScaleSource.optional(),
      })
      .strict()
      .check((ctx) => {
        if (Object.values(ctx.value).every((v) => v === undefined)) {
          ctx.issues.push({
            code: 'custom',
            input: ctx.value,
            message:
              'no source configured, so the build would be empty; add at least one of embedded, edgar, fred, prices, fredmd, rtdsm, scale (see pipelines/default.json)',
          });
        }
      }),
  })
  .strict();
export type PipelineConfig = z.infer<typeof PipelineConfig>;
export type PipelineInput = z.input<typeof PipelineConfig>;
