import { z } from 'zod';
import { Frequency } from './frequency.ts';

/** How `available_at` was obtained (SPEC §4). */
export const AVAILABLE_AT_BASES = ['filing', 'vintage', 'rule', 'bar_close'] as const;
export const AvailableAtBasis = z.enum(AVAILABLE_AT_BASES);
export type AvailableAtBasis = z.infer<typeof AvailableAtBasis>;

/** An ISO-8601 instant in UTC with up to microsecond precision, as the JSON outputs print it. */
export const IsoInstant = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/,
    'expected a UTC instant like 2021-07-20T20:00:00Z',
  );

export const SeriesId = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9:_.\-/^=]+$/, 'series ids use letters, digits and : _ . - / ^ = only');

/**
 * One atomic observation: grain (series_id, timestamp, available_at). In TypeScript, instants travel as
 * epoch microseconds (`number`, exact to 2^53 µs); this schema is the JSON form (`asof show --json`).
 * `value: null` is a withdrawal (tombstone): from `available_at` on, the value published earlier for the same
 * (series_id, timestamp) is withdrawn by its source (e.g. an ALFRED vintage saying "." after a number). It
 * only ever follows a non-null row of the same key; a value that is merely missing is not a row at all.
 * As-of views return no row for a key whose current vintage is a withdrawal (docs/decisions/0007).
 */
export const Observation = z
  .object({
    series_id: SeriesId,
    timestamp: IsoInstant.describe('the instant the value is about (bar close or period end), UTC'),
    period_start: IsoInstant.nullable().describe('start of the period for duration facts, else null'),
    available_at: IsoInstant.describe('first instant the value was public, UTC'),
    value: z
      .number()
      .nullable()
      .describe(
        'the value; null = the earlier value of this (series_id, timestamp) was withdrawn at available_at',
      ),
    available_at_basis: AvailableAtBasis,
    source_ref: z.string().describe('accession number, ALFRED realtime_start, raw-file hash…'),
  })
  .strict();
export type Observation = z.infer<typeof Observation>;

export const SCOPES = ['Inter-country', 'Country', 'Individual'] as const;
export const UniverseKind = z.enum(['point_in_time', 'static']);
export type UniverseKind = z.infer<typeof UniverseKind>;

/** A series as a source declares it; `series` in the build adds the computed columns. */
export const SeriesInput = z
  .object({
    series_id: SeriesId,
    source: z.string().min(1),
    source_key: z.string().min(1),
    title: z.string(),
    unit: z.string(),
    frequency: Frequency,
    scope: z.string().min(1),
    category: z.string().min(1),
    detail_category: z.string().min(1),
    entity_id: z.string().nullable(),
    entity_name: z.string().nullable(),
    currency: z.string().nullable(),
    seasonal_adjustment: z.string().nullable(),
    fiscal_year_end: z.string().nullable(),
    is_synthetic: z.boolean(),
    universe_kind: UniverseKind,
  })
  .strict();
export type SeriesInput = z.infer<typeof SeriesInput>;

/** A row of the built `series` table (grain series_id). */
export const Series = SeriesInput.extend({
  eval_target: z.boolean(),
  first_timestamp: IsoInstant,
  last_timestamp: IsoInstant,
  n_obs: z.number().int().nonnegative(),
  n_revisions: z.number().int().nonnegative(),
}).strict();
export type Series = z.infer<typeof Series>;

export const CorporateActionKind = z.enum(['split', 'dividend']);
/** grain (entity_id, ex_date, kind). `value`: split ratio new/old (4 for 4:1) or cash dividend per share. */
export const CorporateAction = z
  .object({
    entity_id: z.string().min(1),
    ex_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    kind: CorporateActionKind,
    value: z.number().positive(),
    available_at: IsoInstant,
    source_ref: z.string(),
  })
  .strict();
export type CorporateAction = z.infer<typeof CorporateAction>;
