import { Seed, SyntheticDate } from '@asof/schema';
import { z } from 'zod';

/**
 * A synthetic universe with FinVerse Table 1's shape, generated inside DuckDB (SPEC §12): per registry unit,
 * round(series × scale) series whose history lengths follow FinVerse's points per series.
 */
export const ScaleConfig = z
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
export type ScaleConfig = z.infer<typeof ScaleConfig>;
