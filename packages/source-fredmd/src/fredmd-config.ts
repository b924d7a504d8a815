import { z } from 'zod';

/** FRED-MD / FRED-QD monthly vintage files (McCracken–Ng): each file a full panel as published that month. */
export const FredmdConfig = z
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
export type FredmdConfig = z.infer<typeof FredmdConfig>;
