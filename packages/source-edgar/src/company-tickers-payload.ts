import { hasControlChars, printable, zodInputError } from '@asof/schema';
import { z } from 'zod';
import { SEC_BODY_HINT } from './sec-body-hint.ts';

/** `https://www.sec.gov/files/company_tickers.json`: `{"0":{"cik_str":789019,"ticker":"MSFT","title":"…"},…}`. */
export const CompanyTickersPayload = z.record(
  z.string(),
  z.looseObject({
    cik_str: z.union([z.number().int().nonnegative(), z.string().regex(/^\d{1,10}$/)]),
    ticker: z
      .string()
      .min(1)
      .check((ctx) => {
        if (hasControlChars(ctx.value)) {
          ctx.issues.push({
            code: 'custom',
            input: ctx.value,
            message: `ticker ${printable(ctx.value)} contains a control character`,
          });
        }
      }),
    title: z.string(),
  }),
);
export type CompanyTickersPayload = z.infer<typeof CompanyTickersPayload>;

export interface TickerEntry {
  /** 10-digit zero-padded CIK. */
  cik: string;
  ticker: string;
  title: string;
}

/** Validates company_tickers.json and indexes it by upper-case ticker (BRK-B and BRK.B both resolve). */
export function parseCompanyTickers(json: unknown, where: string): Map<string, TickerEntry> {
  const r = CompanyTickersPayload.safeParse(json);
  if (!r.success)
    throw zodInputError('EDGAR_BAD_TICKERS', where, r.error, {
      what: 'SEC company_tickers.json',
      hint: SEC_BODY_HINT,
    });
  const out = new Map<string, TickerEntry>();
  for (const e of Object.values(r.data)) {
    const entry = {
      cik: String(e.cik_str).padStart(10, '0'),
      ticker: e.ticker.toUpperCase(),
      title: e.title,
    };
    out.set(entry.ticker, entry);
    out.set(entry.ticker.replace(/-/g, '.'), entry);
  }
  return out;
}
