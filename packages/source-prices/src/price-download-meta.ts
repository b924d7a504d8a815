import { badDateMessage, badInstantMessage } from '@asof/calendar';
import { PRICE_KINDS } from '@asof/taxonomy';
import { z } from 'zod';

const IsoDate = z.string().check((ctx) => {
  const message = badDateMessage(ctx.value);
  if (message !== null) ctx.issues.push({ code: 'custom', input: ctx.value, message });
});

/**
 * The sidecar a pipeline writes next to each raw price file (`<file>.meta.json` or `<stem>.meta.json`):
 * when it was downloaded and which splits were known then. Every field is optional; what is missing is
 * taken from options, the file name or the file itself (with a warning).
 */
export const PriceDownloadMeta = z
  .object({
    symbol: z.string().min(1).optional(),
    kind: z.enum(PRICE_KINDS, { error: `kind must be one of ${PRICE_KINDS.join(', ')}` }).optional(),
    /** Exact download instant with a zone, e.g. 2025-02-20T14:03:11Z. */
    downloaded_at: z
      .string()
      .check((ctx) => {
        const message = badInstantMessage(ctx.value);
        if (message !== null) {
          ctx.issues.push({
            code: 'custom',
            input: ctx.value,
            message: `${message}; downloaded_at must be an ISO instant with a zone, e.g. 2025-02-20T14:03:11Z`,
          });
        }
      })
      .optional(),
    /** Download date only; read as 23:59:59.999999 New York of that date (the conservative end of the day). */
    download_date: IsoDate.optional(),
    /** Every split between the first bar and the download (ratio new/old: 4 for 4:1). */
    splits: z.array(z.object({ ex_date: IsoDate, ratio: z.number().positive() }).strict()).optional(),
    name: z.string().optional(),
    currency: z.string().optional(),
    entity_id: z.string().optional(),
    /** Source label for the series (default from the format: yahoo, stooq, user_csv). */
    source: z.string().optional(),
    /** The request URL (secrets stripped), for the record. */
    url: z.string().optional(),
  })
  .strict();
export type PriceDownloadMeta = z.infer<typeof PriceDownloadMeta>;
