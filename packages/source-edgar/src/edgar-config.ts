import { Seed, Tickers } from '@asof/schema';
import { z } from 'zod';

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
export const EdgarConfig = z
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
export type EdgarConfig = z.infer<typeof EdgarConfig>;
