import { badDateMessage } from '@asof/calendar';
import { hasControlChars, printable, zodInputError } from '@asof/schema';
import { z } from 'zod';

/** A calendar date YYYY-MM-DD, checked strictly (2020-04-31 is refused, not read as 2020-05-01). */
const IsoDate = z.string({ error: 'expected a date as YYYY-MM-DD' }).check((ctx) => {
  const message = badDateMessage(ctx.value);
  if (message !== null) ctx.issues.push({ code: 'custom', input: ctx.value, message });
});

/**
 * One row of `fred/series/observations`. `value` is text: FRED writes missing values as "." (and the
 * current fredgraph CSV as an empty cell); they are missing, never 0.
 */
export const FredObservation = z.object({
  realtime_start: IsoDate,
  realtime_end: IsoDate,
  date: IsoDate,
  value: z.string(),
});
export type FredObservation = z.infer<typeof FredObservation>;

/** `fred/series/observations?file_type=json` (ALFRED when the realtime window spans more than one day). */
export const FredObservationsResponse = z.looseObject({
  realtime_start: IsoDate,
  realtime_end: IsoDate,
  observation_start: IsoDate.optional(),
  observation_end: IsoDate.optional(),
  units: z.string().optional(),
  output_type: z.number().int().optional(),
  count: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
  observations: z.array(FredObservation),
});
export type FredObservationsResponse = z.infer<typeof FredObservationsResponse>;

export const FredSeriesMeta = z.looseObject({
  id: z
    .string()
    .min(1)
    .check((ctx) => {
      if (hasControlChars(ctx.value)) {
        ctx.issues.push({
          code: 'custom',
          input: ctx.value,
          message: `series id ${printable(ctx.value)} contains a control character`,
        });
      }
    }),
  realtime_start: IsoDate.optional(),
  realtime_end: IsoDate.optional(),
  title: z.string(),
  observation_start: IsoDate.optional(),
  observation_end: IsoDate.optional(),
  frequency: z.string(),
  frequency_short: z.string(),
  units: z.string(),
  units_short: z.string().optional(),
  seasonal_adjustment: z.string().optional(),
  seasonal_adjustment_short: z.string().optional(),
  last_updated: z.string().optional(),
  notes: z.string().optional(),
});
export type FredSeriesMeta = z.infer<typeof FredSeriesMeta>;

/** `fred/series?series_id=…`. */
export const FredSeriesResponse = z.looseObject({
  realtime_start: IsoDate.optional(),
  realtime_end: IsoDate.optional(),
  seriess: z.array(FredSeriesMeta).min(1, 'expected at least one series in "seriess"'),
});
export type FredSeriesResponse = z.infer<typeof FredSeriesResponse>;

export const FredRelease = z.looseObject({
  id: z.number().int(),
  realtime_start: IsoDate.optional(),
  realtime_end: IsoDate.optional(),
  name: z.string(),
  press_release: z.boolean().optional(),
  link: z.string().optional(),
});
export type FredRelease = z.infer<typeof FredRelease>;

/** `fred/series/release?series_id=…` and `fred/release?release_id=…` (both answer `{releases: […]}`). */
export const FredReleasesResponse = z.looseObject({
  realtime_start: IsoDate.optional(),
  realtime_end: IsoDate.optional(),
  releases: z.array(FredRelease).min(1, 'expected at least one release in "releases"'),
});
export type FredReleasesResponse = z.infer<typeof FredReleasesResponse>;

/** `fred/release/dates?release_id=…`. */
export const FredReleaseDatesResponse = z.looseObject({
  realtime_start: IsoDate.optional(),
  realtime_end: IsoDate.optional(),
  count: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
  release_dates: z.array(z.object({ release_id: z.number().int(), date: IsoDate })),
});
export type FredReleaseDatesResponse = z.infer<typeof FredReleaseDatesResponse>;

/** `fred/series/vintagedates?series_id=…`. */
export const FredVintageDatesResponse = z.looseObject({
  realtime_start: IsoDate.optional(),
  realtime_end: IsoDate.optional(),
  count: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
  vintage_dates: z.array(IsoDate),
});
export type FredVintageDatesResponse = z.infer<typeof FredVintageDatesResponse>;

/** FRED answers failures (HTTP 400/404/423/429/500) with this body. */
export const FredErrorResponse = z.object({
  error_code: z.number().int(),
  error_message: z.string(),
});
export type FredErrorResponse = z.infer<typeof FredErrorResponse>;

/**
 * Validates a parsed FRED JSON body against `schema`; on failure an InputError naming `where` (a file or a
 * stripped URL) and the first few issues with their paths, in @asof/schema's one zod-message style.
 */
export function parseFredPayload<S extends z.ZodType>(
  schema: S,
  json: unknown,
  where: string,
  what: string,
): z.infer<S> {
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  throw zodInputError('FRED_BAD_PAYLOAD', where, result.error, {
    what: `FRED ${what} response`,
    hint: 'pass the JSON body of the matching FRED API endpoint with file_type=json',
    context: { where, what },
  });
}
