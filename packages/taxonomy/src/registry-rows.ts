import { Frequency, formatZodIssues } from '@asof/schema';
import { z } from 'zod';
import type { TsvRow } from './read-tsv.ts';
import { RegistryError } from './registry-error.ts';
import { ASPECTS, MACRO_PANEL_DATASETS, PRICE_FIELDS, PRICE_KINDS } from './registry-types.ts';

const nonEmpty = z.string().min(1, { error: 'must not be empty' });
const yesNo = z
  .enum(['yes', 'no'], { error: (iss) => `must be yes or no; got ${JSON.stringify(iss.input)}` })
  .transform((v) => v === 'yes');
const steps = z
  .string()
  .regex(/^[0-9]+$/, { error: 'must be a whole number of steps' })
  .transform(Number)
  .pipe(z.number().int().positive({ error: 'must be at least 1' }));
const unitColumns = { scope: nonEmpty, category: nonEmpty, detail_category: nonEmpty, frequency: Frequency };

/** zod schemas of one row of each registry file (cells as strings, keyed by header). */
export const UnitRow = z.object({ ...unitColumns, eval_target: yesNo, finverse: yesNo });
export const AssignmentRow = z.object({
  ...unitColumns,
  aspect: z.enum(ASPECTS, {
    error: (iss) => `aspect must be one of ${ASPECTS.join(', ')}; got ${JSON.stringify(iss.input)}`,
  }),
  metrics: nonEmpty,
  variant: nonEmpty,
});
export const VariantRow = z.object({ variant: nonEmpty, combinations: nonEmpty });
export const HorizonsRow = z.object({
  frequency: Frequency,
  prediction_length: steps,
  minimum_lookback: steps,
});
export const FredRow = z.object({
  ...unitColumns,
  series_id: z
    .string()
    .regex(/^[A-Z0-9_]+$/, { error: 'FRED series ids are upper-case letters, digits and _' }),
  title: nonEmpty,
  units: nonEmpty,
  release: z.string(),
  verified: yesNo,
});
export const EdgarRow = z.object({
  detail_category: nonEmpty,
  kind: z.enum(['flow', 'instant', 'per_share', 'shares'], {
    error: (iss) => `kind must be flow, instant, per_share or shares; got ${JSON.stringify(iss.input)}`,
  }),
  units: nonEmpty,
  concepts: z
    .string()
    .regex(/^[A-Za-z0-9]+(,[A-Za-z0-9]+)*$/, { error: 'must be comma-separated us-gaap concept names' }),
});
export const PriceRow = z.object({
  ...unitColumns,
  kind: z.enum(PRICE_KINDS, {
    error: (iss) => `kind must be one of ${PRICE_KINDS.join(', ')}; got ${JSON.stringify(iss.input)}`,
  }),
  field: z.enum(PRICE_FIELDS, {
    error: (iss) => `field must be one of ${PRICE_FIELDS.join(', ')}; got ${JSON.stringify(iss.input)}`,
  }),
});
export const EmbeddedRow = z.object({
  ...unitColumns,
  dataset: nonEmpty,
  series: nonEmpty,
  field: nonEmpty,
  synthetic: yesNo,
});

export const MacroPanelRow = z.object({
  ...unitColumns,
  dataset: z.enum(MACRO_PANEL_DATASETS, {
    error: (iss) =>
      `dataset must be one of ${MACRO_PANEL_DATASETS.join(', ')}; got ${JSON.stringify(iss.input)}`,
  }),
  mnemonic: nonEmpty,
  title: nonEmpty,
  units: nonEmpty,
});

/** Validates one TSV row; its problems become a RegistryError naming the first column and its value. */
export function parseRow<S extends z.ZodType>(schema: S, row: TsvRow): z.output<S> {
  const result = schema.safeParse(row.cells);
  if (result.success) return result.data;
  const column = String(result.error.issues[0].path[0] ?? '');
  throw new RegistryError(row.origin, formatZodIssues(result.error), {
    column,
    value: row.cells[column],
  });
}

/** Column names of each registry file, as its header must list them. */
export const REGISTRY_COLUMNS = {
  'units.tsv': ['scope', 'category', 'detail_category', 'frequency', 'eval_target', 'finverse'],
  'assignments.tsv': ['scope', 'category', 'detail_category', 'frequency', 'aspect', 'metrics', 'variant'],
  'variants.tsv': ['variant', 'combinations'],
  'horizons.tsv': ['frequency', 'prediction_length', 'minimum_lookback'],
  'fred-catalog.tsv': [
    'series_id',
    'title',
    'units',
    'frequency',
    'scope',
    'category',
    'detail_category',
    'release',
    'verified',
  ],
  'edgar-concepts.tsv': ['detail_category', 'kind', 'units', 'concepts'],
  'macro-panels.tsv': [
    'dataset',
    'mnemonic',
    'title',
    'units',
    'frequency',
    'scope',
    'category',
    'detail_category',
  ],
  'price-kinds.tsv': ['kind', 'field', 'scope', 'category', 'detail_category', 'frequency'],
  'embedded.tsv': [
    'dataset',
    'series',
    'field',
    'scope',
    'category',
    'detail_category',
    'frequency',
    'synthetic',
  ],
} as const;
export type RegistryFileName = keyof typeof REGISTRY_COLUMNS;

/** Rows of one registry file (header checked against REGISTRY_COLUMNS), and its path for messages. */
export interface RegistrySource {
  rows(name: RegistryFileName): TsvRow[];
  path(name: RegistryFileName): string;
}
