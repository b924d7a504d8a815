import { badDateMessage } from '@asof/calendar';
import { implausibleValueProblem, zodInputError } from '@asof/schema';
import { z } from 'zod';
import { SEC_BODY_HINT } from './sec-body-hint.ts';

/** A calendar date YYYY-MM-DD, checked strictly (2020-04-31 is refused, not read as May 1). */
export const edgarDate = (what: string) =>
  z.string({ error: `${what} must be a date YYYY-MM-DD` }).check((ctx) => {
    const message = badDateMessage(ctx.value);
    if (message !== null)
      ctx.issues.push({ code: 'custom', input: ctx.value, message: `${what}: ${message}` });
  });
const date = edgarDate;

/** One reported value. `fy`/`fp` describe the filing, not the period (SPEC §5): periods come from start/end. */
export const CompanyfactsFact = z.looseObject({
  start: date('start').optional(),
  end: date('end'),
  val: z.number({ error: 'val must be a number' }).check((ctx) => {
    const problem = implausibleValueProblem(ctx.value);
    if (problem !== null) ctx.issues.push({ code: 'custom', input: ctx.value, message: `val: ${problem}` });
  }),
  accn: z
    .string()
    .regex(/^\d{10}-\d{2}-\d{6}$/, 'accn must be an accession number like 0000320193-19-000119'),
  fy: z.number().int().nullable().optional(),
  fp: z.string().nullable().optional(),
  form: z.string().min(1),
  filed: date('filed'),
  frame: z.string().optional(),
});
export type CompanyfactsFact = z.infer<typeof CompanyfactsFact>;

export const CompanyfactsConcept = z.looseObject({
  label: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  units: z.record(z.string(), z.array(CompanyfactsFact)),
});
export type CompanyfactsConcept = z.infer<typeof CompanyfactsConcept>;

/**
 * `api/xbrl/companyfacts/CIK##########.json`. `cik` is an int in most responses but a zero-padded string
 * in some (LPA), so both are accepted and normalised to 10 digits.
 */
export const CompanyfactsPayload = z.looseObject({
  cik: z.union([z.number().int().nonnegative(), z.string().regex(/^\d{1,10}$/, 'cik must be digits')]),
  entityName: z.string(),
  // Concepts are validated when read (parseCompanyfacts): a full file holds hundreds of concepts asof
  // never maps, and checking them all costs more than the rest of the ingest.
  facts: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
});
export type CompanyfactsPayload = z.infer<typeof CompanyfactsPayload>;

/** Validates one concept of a companyfacts body (`where` names the file and concept in the error). */
export function parseCompanyfactsConcept(json: unknown, where: string): CompanyfactsConcept {
  const r = CompanyfactsConcept.safeParse(json);
  if (!r.success)
    throw zodInputError('EDGAR_BAD_COMPANYFACTS', where, r.error, {
      what: 'SEC companyfacts concept',
      hint: SEC_BODY_HINT,
    });
  return r.data;
}

/** Validates a companyfacts body; `where` (file name or URL) goes into the error message. */
export function parseCompanyfactsPayload(json: unknown, where: string): CompanyfactsPayload {
  const r = CompanyfactsPayload.safeParse(json);
  if (!r.success)
    throw zodInputError('EDGAR_BAD_COMPANYFACTS', where, r.error, {
      what: 'SEC companyfacts JSON',
      hint: SEC_BODY_HINT,
    });
  return r.data;
}

/** CIK as the 10-digit zero-padded string EDGAR uses in URLs. */
export function padCik(cik: number | string): string {
  return String(cik).padStart(10, '0');
}
