import { isKnownTimeZone } from '@asof/calendar';
import { z } from 'zod';

/**
 * The Yahoo Finance v8 chart response (`/v8/finance/chart/<SYM>?…&interval=1d&events=div|split`), as far as
 * asof reads it. Unknown fields are allowed (Yahoo adds them often); the ones below must have these types.
 */

// Whole epoch seconds from 1900-01-01 to 2100-01-01: anything else is not a trading day of a real chart.
const epochSeconds = (what: string) =>
  z
    .number({ error: `${what} must be a number (epoch seconds)` })
    .int({ error: `${what} must be whole epoch seconds` })
    .min(-2_208_988_800, { error: `${what} is before 1900-01-01` })
    .max(4_102_444_800, { error: `${what} is after 2100-01-01` });

const nullableNumbers = z.array(z.number().nullable(), {
  error: 'expected an array of numbers or nulls (one per timestamp)',
});

export const YahooSplitEvent = z.object({
  date: epochSeconds('split event `date`'),
  numerator: z.number().positive({ error: 'split `numerator` must be a positive number' }),
  denominator: z.number().positive({ error: 'split `denominator` must be a positive number' }),
  splitRatio: z.string().optional(),
});

export const YahooDividendEvent = z.object({
  date: epochSeconds('dividend event `date`'),
  amount: z.number({ error: 'dividend event needs a numeric `amount`' }),
});

export const YahooChartResult = z.looseObject({
  meta: z.looseObject({
    symbol: z.string({ error: 'meta.symbol is required' }),
    currency: z.string().nullable().optional(),
    exchangeTimezoneName: z
      .string({ error: 'meta.exchangeTimezoneName (e.g. America/New_York) is required' })
      .refine(isKnownTimeZone, {
        error: (issue) =>
          `meta.exchangeTimezoneName ${JSON.stringify(issue.input)} is not an IANA time zone; expected one such as America/New_York`,
      }),
    instrumentType: z.string().nullable().optional(),
    longName: z.string().nullable().optional(),
    shortName: z.string().nullable().optional(),
    regularMarketTime: z.number().nullable().optional(),
    dataGranularity: z.string().optional(),
  }),
  timestamp: z.array(epochSeconds('timestamp')).optional(),
  events: z
    .looseObject({
      splits: z.record(z.string(), YahooSplitEvent).optional(),
      dividends: z.record(z.string(), YahooDividendEvent).optional(),
    })
    .nullable()
    .optional(),
  indicators: z.looseObject({
    quote: z
      .array(
        z.looseObject({
          open: nullableNumbers.optional(),
          high: nullableNumbers.optional(),
          low: nullableNumbers.optional(),
          close: nullableNumbers.optional(),
          volume: nullableNumbers.optional(),
        }),
      )
      .min(1, { error: 'indicators.quote must hold one object with open/high/low/close/volume arrays' }),
    adjclose: z.array(z.looseObject({ adjclose: nullableNumbers.optional() })).optional(),
  }),
});
export type YahooChartResult = z.infer<typeof YahooChartResult>;

export const YahooChartPayload = z.looseObject({
  chart: z.looseObject({
    result: z.array(YahooChartResult).nullable(),
    error: z
      .looseObject({ code: z.string().optional(), description: z.string().nullable().optional() })
      .nullable()
      .optional(),
  }),
});
export type YahooChartPayload = z.infer<typeof YahooChartPayload>;
