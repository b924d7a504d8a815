import { Seed, Tickers } from '@asof/schema';
import { z } from 'zod';

/** Daily prices: live Yahoo by symbol, offline raw files (Yahoo chart JSON, Stooq CSV), or synthetic Yahoo JSON. */
export const PricesConfig = z
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
export type PricesConfig = z.infer<typeof PricesConfig>;
