import { z } from 'zod';

/** Philadelphia Fed Real-Time Data Set files: one column per vintage (ROUTPUT65Q4 …), one row per period. */
export const RtdsmConfig = z
  .object({
    raw_dir: z
      .string()
      .describe(
        'a folder of RTDSM CSVs (first column DATE as 1947:Q1 or 1947:01, then one column per vintage)',
      ),
  })
  .strict();
export type RtdsmConfig = z.infer<typeof RtdsmConfig>;
