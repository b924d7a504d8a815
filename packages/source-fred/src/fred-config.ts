import { Seed, SyntheticDate, startNotAfterEnd } from '@asof/schema';
import { z } from 'zod';

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
export const FredConfig = z
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
export type FredConfig = z.infer<typeof FredConfig>;
